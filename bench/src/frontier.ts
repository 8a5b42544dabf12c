// `npm run bench -- --frontier [--full]`: the frontier against the best native program. The peer
// (`../shared/baseline/peer-tm-dfs.cpp`, transfer matrix + mirror DFS in C++, built with
// build-peer.sh) on 2 threads, and the pipeline with default settings on 2 worker processes of
// one core each (private redis-server), on S(16) and with --full on S(17), in the same run.
// Reports wall times and their ratio (the COST: how many of our workers match one peer thread),
// single-core seconds per D for both, peak RSS per worker, and whether every N(n, D) agrees.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './baseline.js';
import { LocalCluster } from './local-cluster.js';
import { measure } from './measure.js';

const WORKERS = 2;
const GOALS = { ratio: 0.5, s17Seconds: 480, rssMiB: 2048 };

interface PeerLine {
  readonly n: number;
  readonly S: string;
  readonly N: string[];
  readonly seconds: number;
  readonly depthSeconds: number[];
}

/** Builds the peers with their own build-peer.sh; returns the path of the one named. */
export function buildPeer(name: 'peer-tm-dfs' | 'peer-classic' = 'peer-tm-dfs'): string {
  const directory = process.env.WQ_BASELINE_DIR ?? join(repositoryRoot, '..', 'shared', 'baseline');
  const script = join(directory, 'build-peer.sh');
  if (!existsSync(script)) {
    throw new Error(`peer not found: ${script} (set WQ_BASELINE_DIR to the folder with it)`);
  }
  const out = mkdtempSync(join(tmpdir(), 'wq-peer-'));
  const paths = execFileSync('bash', [script, out], { encoding: 'utf8' }).trim().split('\n');
  return paths.find((p) => p.endsWith(name)) ?? '';
}

export async function runFrontierBench(options: { full: boolean }): Promise<boolean> {
  const peer = buildPeer();
  const ns = options.full ? [16, 17] : [16];
  const rows: string[] = [
    '| n | runner | wall s | × peer | core-s | peak RSS MiB | N(n, D) agree |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
  ];
  const perDepth: string[] = [];
  const goals: string[] = [];
  let ok = true;
  for (const n of ns) {
    console.error(`  peer-tm-dfs ${n} ${n} ${WORKERS} …`);
    const run = await measure(peer, [String(n), String(n), String(WORKERS)]);
    const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as PeerLine;
    const peerCore = line.depthSeconds.reduce((a, b) => a + b, 0);

    console.error(`  pipeline S(${n}) on ${WORKERS} worker processes × 1 core, default settings …`);
    const cluster = await LocalCluster.start({ workers: WORKERS, concurrency: 1 });
    let seconds: number;
    let ours: { depth: number; value: string; seconds: number; algorithm: string; units: number }[];
    let rss: number[];
    try {
      const sweep = await cluster.sweep([n]);
      seconds = sweep.seconds;
      rss = cluster.peakRssMiB();
      ours = [...(await cluster.client.store.depths(n)).values()].sort((a, b) => a.depth - b.depth);
    } finally {
      await cluster.stop();
    }
    const agree = line.N.every((v, d) => ours[d]?.value === v);
    const ourCore = ours.reduce((t, d) => t + d.seconds, 0);
    const ratio = seconds / run.seconds;
    rows.push(
      `| ${n} | peer-tm-dfs, ${WORKERS} threads | ${run.seconds.toFixed(1)} | 1.00 | ${peerCore.toFixed(1)} | ${run.peakRssMiB.toFixed(0)} | |`,
      `| ${n} | pipeline, ${WORKERS} workers × 1 core | ${seconds.toFixed(1)} | **${ratio.toFixed(2)}** | ${ourCore.toFixed(1)} | ${rss.map((r) => r.toFixed(0)).join(', ')} | ${agree ? 'yes' : 'NO'} |`,
    );
    perDepth.push(
      `S(${n}) single-core seconds per D (peer / pipeline, algorithm, units):`,
      ...ours.map(
        (d) =>
          `  D = ${String(d.depth).padStart(2)}: ${(line.depthSeconds[d.depth] ?? 0).toFixed(2).padStart(8)} / ${d.seconds.toFixed(2).padStart(8)}  ${d.algorithm}, ${d.units} unit(s)`,
      ),
    );
    goals.push(
      `S(${n}): ${ratio.toFixed(2)}× the peer's wall time (goal ≤ ${GOALS.ratio}); core-seconds ${ourCore.toFixed(0)} against ${peerCore.toFixed(0)}; peak RSS per worker ${Math.max(...rss).toFixed(0)} MiB (goal ≤ ${GOALS.rssMiB}); values ${agree ? 'agree' : 'DISAGREE'}`,
    );
    ok &&= agree && ratio <= GOALS.ratio && Math.max(...rss) <= GOALS.rssMiB;
    if (n === 17) ok &&= seconds <= GOALS.s17Seconds;
  }
  console.log([...rows, '', ...perDepth, '', ...goals].join('\n'));
  return ok;
}
