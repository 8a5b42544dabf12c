// `npm run bench -- --classic [--full]`: classic Q(n) on the pipeline against the peer. The peer
// (`../shared/baseline/peer-classic.cpp`: textbook bitmask DFS with the mirror, 2 threads,
// built by build-peer.sh) and the pipeline (`wq sweep --problem classic` on 2 worker processes
// of one core each, private redis-server) side by side in one run, on Q(16)–Q(18) (--full:
// Q(19), Q(20)); prints wall times, the ratio (goal ≤ 0.5× the peer) and whether Q(n) and the
// unique count agree with the peer and with OEIS A000170 / A002562.
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '@weak-queens/shared/contracts';
import { buildPeer } from './frontier.js';
import { LocalCluster } from './local-cluster.js';
import { measure } from './measure.js';

const WORKERS = 2;
const GOAL_RATIO = 0.5;

export async function runClassicBench(options: { full: boolean; ns?: number[] }): Promise<boolean> {
  const peer = buildPeer('peer-classic');
  const ns = options.ns ?? (options.full ? [16, 17, 18, 19, 20] : [16, 17, 18]);
  const rows: string[] = [
    '| n | runner | wall s | × peer | core-s | Q(n) | unique | agrees |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const goals: string[] = [];
  let ok = true;
  const cluster = await LocalCluster.start({ workers: WORKERS, concurrency: 1 });
  try {
    for (const n of ns) {
      console.error(`  peer-classic ${n} ${n} ${WORKERS} …`);
      const run = await measure(peer, [String(n), String(n), String(WORKERS)]);
      const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { Q: string };

      console.error(`  pipeline Q(${n}) on ${WORKERS} worker processes × 1 core …`);
      const started = performance.now();
      const submission = await cluster.client.submitClassic([n]);
      const results = await cluster.client.waitForClassic([n], {
        sweepId: submission.sweepId,
        pollMs: 50,
      });
      const seconds = (performance.now() - started) / 1000;
      const ours = results.get(n);
      const agree =
        ours?.Q === line.Q &&
        ours.Q === CLASSIC_QUEENS[n - 1] &&
        (UNIQUE_QUEENS[n - 1] === undefined || ours.unique === UNIQUE_QUEENS[n - 1]);
      const ratio = seconds / run.seconds;
      rows.push(
        `| ${n} | peer-classic, ${WORKERS} threads | ${run.seconds.toFixed(2)} | 1.00 |  | ${line.Q} | | |`,
        `| ${n} | pipeline, ${WORKERS} workers × 1 core | ${seconds.toFixed(2)} | **${ratio.toFixed(2)}** | ${ours?.seconds.toFixed(2) ?? ''} | ${ours?.Q ?? 'missing'} | ${ours?.unique ?? 'missing'} | ${agree ? 'yes' : 'NO'} |`,
      );
      goals.push(
        `Q(${n}): ${ratio.toFixed(2)}× the peer's wall time (goal ≤ ${GOAL_RATIO}); ${ours?.units ?? 0} units; values ${agree ? 'agree with the peer and OEIS' : 'DISAGREE'}`,
      );
      ok &&= agree && ratio <= GOAL_RATIO;
    }
  } finally {
    await cluster.stop();
  }
  console.log([...rows, '', ...goals].join('\n'));
  return ok;
}
