// `npm run bench -- --cluster-replay`: the planner's cluster plans against a real run. For each
// described cluster (64 and 256 one-slot workers of 3 GiB), S(17) is planned for that cluster
// and run for real here on one worker process of one core, so that every unit runs alone, as on
// a one-slot machine (two workers on this 2-core machine slow each other's memory-bound transfer
// units by up to a third); its recorded unit times are then replayed on the described cluster
// in the queue's order (largest expected first, each on the slot that frees up first).
// Efficiency = recorded core-seconds ÷ (slots × replayed makespan).
import {
  type ClusterDescription,
  planForCluster,
  replayMakespan,
} from '@weak-queens/shared/client';
import { compileConfig } from '@weak-queens/shared/contracts';
import { LocalCluster } from './local-cluster.js';
import { recordedUnits } from './recorded-units.js';

const N = 17;
const GiB = 2 ** 30;
const CLUSTERS: readonly { cluster: ClusterDescription; goal: number }[] = [
  { cluster: { workers: 64, slots: 1, workerMemoryBytes: 3 * GiB }, goal: 0.9 },
  { cluster: { workers: 256, slots: 1, workerMemoryBytes: 3 * GiB }, goal: 0.75 },
];
/** Worker processes of one core that run the plan here. */
const LOCAL_WORKERS = 1;
/** The largest recorded units listed per cluster: the ones that bound its makespan. */
const LARGEST_SHOWN = 3;

/** `workers`: only the described clusters of that many workers (default: all). */
export async function runClusterReplayBench(workers?: readonly number[]): Promise<boolean> {
  const rows = [
    `| cluster | units | core-seconds | planned makespan s | replayed makespan s | efficiency | goal | run here s |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const notes: string[] = [];
  const sums = new Set<string>();
  let ok = true;
  const chosen = CLUSTERS.filter((c) => !workers || workers.includes(c.cluster.workers));
  if (chosen.length === 0)
    throw new Error(`no described cluster of ${workers?.join(', ')} workers`);
  for (const { cluster, goal } of chosen) {
    const name = `${cluster.workers} × ${cluster.slots} slot`;
    console.error(
      `  S(${N}) planned for ${name}, run on ${LOCAL_WORKERS} worker process × 1 core …`,
    );
    const local = await LocalCluster.start({ workers: LOCAL_WORKERS, concurrency: 1 });
    try {
      // The plan the submission makes below (fresh store: no calibration yet), for its makespan.
      const plan = planForCluster([N], cluster, {
        targetSeconds: compileConfig(process.env).targetSeconds,
        calibration: await local.client.store.calibration(),
      });
      const started = performance.now();
      const submission = await local.client.submit([N], { cluster });
      await local.client.waitFor(submission.sweep.id, { intervalMs: 200 });
      const seconds = (performance.now() - started) / 1000;
      sums.add((await local.client.store.sums([N])).get(N) ?? 'missing');
      const units = await recordedUnits(local.client, N);
      const slots = cluster.workers * cluster.slots;
      const coreSeconds = units.reduce((t, u) => t + u.seconds, 0);
      const makespan = replayMakespan(units, slots);
      const efficiency = coreSeconds / (slots * makespan);
      rows.push(
        `| ${name} | ${units.length} | ${coreSeconds.toFixed(0)} | ${plan.makespanSeconds.toFixed(2)} | ${makespan.toFixed(2)} | **${(100 * efficiency).toFixed(0)}%** | ${100 * goal}% | ${seconds.toFixed(0)} |`,
      );
      const largest = [...units].sort((a, b) => b.seconds - a.seconds).slice(0, LARGEST_SHOWN);
      notes.push(
        `- ${name}: largest units ${largest
          .map((u) => `N(${N}, ${u.depth}) ${u.algorithm} ${u.seconds.toFixed(2)} s`)
          .join(', ')}`,
      );
      ok &&= efficiency >= goal;
    } finally {
      await local.stop();
    }
  }
  const agree = sums.size === 1 && !sums.has('missing');
  notes.push(`- S(${N}) = ${[...sums].join(' / ')}: ${agree ? 'the runs agree' : 'DISAGREE'}`);
  console.log([...rows, '', ...notes].join('\n'));
  return ok && agree;
}
