// `npm run bench -- --scale [--full]`: how the pipeline scales. S(15) on 1 and 2 worker processes
// (one core each): makespan, speedup, per-worker peak memory. With --full, S(16) end to end on
// 2 workers, and a makespan simulation of its recorded unit times on 8, 64 and 256 workers.
import { replayMakespan } from '@weak-queens/shared/client';
import { LocalCluster } from './local-cluster.js';
import { recordedUnits } from './recorded-units.js';

/** S(15) as the C++ baseline computes it (`seed-dp 15`), to check the pipeline's value. */
const S15 = '461983502794813419';
/** Units small enough that 256 workers could share S(16) (single-core seconds). */
const SCALE_TARGET_SECONDS = 0.5;
const GOALS = { speedup: 1.8, s16Seconds: 600, efficiency64: 0.85 };

export async function runScaleBench(options: { full: boolean }): Promise<boolean> {
  const lines: string[] = [];
  let ok = true;

  const runs: { workers: number; seconds: number; rss: number[]; exact: boolean }[] = [];
  for (const workers of [1, 2]) {
    console.error(`  S(15) on ${workers} worker process(es) …`);
    const cluster = await LocalCluster.start({ workers, concurrency: 1 });
    try {
      const { seconds, S } = await cluster.sweep([15], { targetSeconds: 2 });
      runs.push({ workers, seconds, rss: cluster.peakRssMiB(), exact: S.get(15) === S15 });
    } finally {
      await cluster.stop();
    }
  }
  lines.push(
    '| run | makespan s | speedup | peak RSS per worker MiB | S exact |',
    '|---|---:|---:|---|---|',
  );
  const one = runs[0]?.seconds ?? NaN;
  for (const run of runs) {
    lines.push(
      `| S(15), ${run.workers} worker process(es) × 1 core | ${run.seconds.toFixed(1)} | ${(one / run.seconds).toFixed(2)} | ${run.rss.map((r) => r.toFixed(0)).join(', ')} | ${run.exact ? 'yes' : 'NO'} |`,
    );
  }
  const speedup = one / (runs[1]?.seconds ?? NaN);
  const goals = [`speedup from 1 to 2 workers: ${speedup.toFixed(2)}× (goal ≥ ${GOALS.speedup}×)`];
  ok &&= runs.every((r) => r.exact) && speedup >= GOALS.speedup;

  if (options.full) {
    console.error(`  S(16) on 2 worker processes, units ≤ ${SCALE_TARGET_SECONDS} s …`);
    const cluster = await LocalCluster.start({ workers: 2, concurrency: 1 });
    try {
      const { seconds, S } = await cluster.sweep([16], { targetSeconds: SCALE_TARGET_SECONDS });
      const record = await cluster.client.store.record(16);
      const units = await recordedUnits(cluster.client, 16);
      const total = units.reduce((t, u) => t + u.seconds, 0);
      const exact = S.has(16) && record !== undefined;
      lines.push(
        `| S(16), 2 worker processes × 1 core | ${seconds.toFixed(1)} | | ${cluster
          .peakRssMiB()
          .map((r) => r.toFixed(0))
          .join(', ')} | S(16) = ${S.get(16) ?? 'missing'} |`,
      );
      goals.push(
        `S(16) end to end on 2 workers: ${seconds.toFixed(0)} s (goal ≤ ${GOALS.s16Seconds} s)`,
      );
      ok &&= exact && seconds <= GOALS.s16Seconds;

      lines.push(
        '',
        `Makespan simulation of S(16)'s ${units.length} recorded unit times (${total.toFixed(0)} core-seconds), replayed in the queue's order:`,
        '',
      );
      lines.push('| workers | makespan s | efficiency |', '|---:|---:|---:|');
      for (const workers of [2, 8, 64, 256]) {
        const makespan = replayMakespan(units, workers);
        const efficiency = total / (workers * makespan);
        lines.push(`| ${workers} | ${makespan.toFixed(1)} | ${(100 * efficiency).toFixed(0)}% |`);
        if (workers === 64) {
          goals.push(
            `simulated efficiency at 64 workers: ${(100 * efficiency).toFixed(0)}% (goal ≥ ${100 * GOALS.efficiency64}%)`,
          );
          ok &&= efficiency >= GOALS.efficiency64;
        }
      }
    } finally {
      await cluster.stop();
    }
  }
  console.log(`\n${lines.join('\n')}\n\n${goals.map((g) => `- ${g}`).join('\n')}`);
  return ok;
}
