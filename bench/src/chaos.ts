// `npm run bench -- --chaos [--minutes m]`: the chaos soak (test/src/chaos-soak.ts) for m
// minutes (default 10): rounds of a sweep of about 5,000 units on 4 worker processes under
// random kill -9s, freezes, Redis restarts and network cuts. Reports units re-run, time lost
// to faults and duplicates detected; fails unless every S(n) of every round is exact.
import { runChaosSoak } from '@weak-queens/test';

export async function runChaosBench(options: { minutes: number }): Promise<boolean> {
  console.error(`  chaos soak for ${options.minutes} min …`);
  const report = await runChaosSoak({
    minutes: options.minutes,
    log: (line) => console.error(`  ${line}`),
  });
  const units = report.rounds.reduce((t, r) => t + r.units, 0);
  const seconds = report.rounds.reduce((t, r) => t + r.seconds, 0);
  const faults = Object.entries(report.faults)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  console.log(
    [
      `| measure | value |`,
      `| --- | ---: |`,
      `| baseline round (no faults) | ${report.baseline.units} units in ${report.baseline.seconds.toFixed(1)} s |`,
      `| chaos rounds | ${report.rounds.length} (${units} units in ${seconds.toFixed(1)} s) |`,
      `| faults | ${faults}${report.networkCutsUnavailable ? ` (no network cuts: ${report.networkCutsUnavailable})` : ''} |`,
      `| units re-run | ${report.unitsRerun} (${((100 * report.unitsRerun) / Math.max(1, units)).toFixed(2)} %) |`,
      `| duplicates detected (same value counted twice) | ${report.duplicates} |`,
      `| time lost to faults | ${report.secondsLost.toFixed(1)} s (${((100 * report.secondsLost) / Math.max(1e-9, seconds)).toFixed(0)} % of the chaos rounds) |`,
      `| every S(n) of every round exact | ${report.exact ? 'yes' : 'NO'} |`,
    ].join('\n'),
  );
  return report.exact;
}
