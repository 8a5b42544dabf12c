// `npm run bench -- --classic [--full]`: classic Q(n) on the pipeline against the peer. The peer
// (`../shared/baseline/peer-classic.cpp`: textbook bitmask DFS with the mirror, 2 threads,
// built by build-peer.sh) and the pipeline (`wq sweep --problem classic` on 2 worker processes
// of one core each, private redis-server) side by side in one run, on Q(16)–Q(18) (--full:
// Q(19), Q(20)); prints wall times, the ratio (goal ≤ 0.5× the peer) and whether Q(n) and the
// unique count agree with the peer and with OEIS A000170 / A002562. --no-peer runs the pipeline
// alone, checked against OEIS only: for Q(20), where the peer takes well over an hour here.
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '@weak-queens/shared/contracts';
import { buildPeer } from './frontier.js';
import { LocalCluster } from './local-cluster.js';
import { measure } from './measure.js';

const WORKERS = 2;
const GOAL_RATIO = 0.5;

export async function runClassicBench(options: {
  full: boolean;
  /** Run the peer beside the pipeline (default); without it, no ratio, OEIS only. */
  peer?: boolean;
  ns?: number[];
}): Promise<boolean> {
  const peer = options.peer === false ? undefined : buildPeer('peer-classic');
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
      const run = peer ? await runPeer(peer, n) : undefined;

      console.error(`  pipeline Q(${n}) on ${WORKERS} worker processes × 1 core …`);
      const started = performance.now();
      const submission = await cluster.client.submitClassic([n]);
      // The wait `wq sweep --wait` does: woken by the sum's completion, a slow poll behind it
      // (a fast poll would only take CPU from the two workers this machine has).
      const results = await cluster.client.waitForClassic([n], { sweepId: submission.sweepId });
      const seconds = (performance.now() - started) / 1000;
      const ours = results.get(n);
      const agree =
        (run === undefined || ours?.Q === run.Q) &&
        ours?.Q === CLASSIC_QUEENS[n - 1] &&
        (UNIQUE_QUEENS[n - 1] === undefined || ours?.unique === UNIQUE_QUEENS[n - 1]);
      const ratio = run ? seconds / run.seconds : undefined;
      if (run) {
        rows.push(
          `| ${n} | peer-classic, ${WORKERS} threads | ${run.seconds.toFixed(2)} | 1.00 |  | ${run.Q} | | |`,
        );
      }
      rows.push(
        `| ${n} | pipeline, ${WORKERS} workers × 1 core | ${seconds.toFixed(2)} | ${ratio === undefined ? 'not run' : `**${ratio.toFixed(2)}**`} | ${ours?.seconds.toFixed(2) ?? ''} | ${ours?.Q ?? 'missing'} | ${ours?.unique ?? 'missing'} | ${agree ? 'yes' : 'NO'} |`,
      );
      const against = run ? 'the peer and OEIS' : 'OEIS (peer not run)';
      goals.push(
        `Q(${n}): ${ratio === undefined ? 'no peer run' : `${ratio.toFixed(2)}× the peer's wall time (goal ≤ ${GOAL_RATIO})`}; ${ours?.units ?? 0} units; values ${agree ? `agree with ${against}` : 'DISAGREE'}`,
      );
      ok &&= agree && (ratio === undefined || ratio <= GOAL_RATIO);
    }
  } finally {
    await cluster.stop();
  }
  console.log([...rows, '', ...goals].join('\n'));
  return ok;
}

/** The peer's count of Q(n) on WORKERS threads, and its wall time. */
async function runPeer(peer: string, n: number): Promise<{ seconds: number; Q: string }> {
  console.error(`  peer-classic ${n} ${n} ${WORKERS} …`);
  const run = await measure(peer, [String(n), String(n), String(WORKERS)]);
  const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { Q: string };
  return { seconds: run.seconds, Q: line.Q };
}
