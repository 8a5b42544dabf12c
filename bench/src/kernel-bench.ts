// `npm run bench`: S(n) with each algorithm and `auto`, one process and one thread each, against
// the baseline's single-thread run made in the same invocation (machines here are shared and
// noisy, so only same-run ratios mean anything).
import { join } from 'node:path';
import { ALGORITHM_CHOICES, estimateCost } from '@weak-queens/shared/kernel';
import { buildBaseline, parseResultLines, repositoryRoot } from './baseline.js';
import { measure } from './measure.js';

/** Algorithms whose whole S(n) is estimated above this are reported as skipped, not run. */
const SKIP_ABOVE_SECONDS = 1800;

interface Row {
  n: number;
  runner: string;
  seconds: number;
  peakRssMiB: number;
  correct: boolean | undefined;
  note: string;
}

export async function runKernelBench(options: { full: boolean }): Promise<boolean> {
  const sizes = options.full ? [13, 14, 15] : [13, 14];
  const baseline = buildBaseline();
  const wq = join(repositoryRoot, 'producer', 'bin', 'wq.js');
  const rows: Row[] = [];
  const baselineRows = new Map<number, Row & { S: string }>();

  for (const n of sizes) {
    const base = await measure(baseline, [String(n), String(n), '1']);
    const line = parseResultLines(base.stdout)[0];
    const row = {
      n,
      runner: 'baseline (C++, 1 thread)',
      seconds: base.seconds,
      peakRssMiB: base.peakRssMiB,
    };
    baselineRows.set(n, { ...row, correct: undefined, note: '', S: line?.S ?? '?' });
    rows.push({ ...row, correct: undefined, note: `S = ${line?.S ?? '?'}` });
    report(rows.at(-1));

    for (const algorithm of ALGORITHM_CHOICES) {
      const runner = `wq compute --threads 1 --algorithm ${algorithm}`;
      if (algorithm !== 'auto') {
        const estimate = estimatedS(algorithm, n);
        if (estimate > SKIP_ABOVE_SECONDS) {
          rows.push({
            n,
            runner,
            seconds: NaN,
            peakRssMiB: NaN,
            correct: undefined,
            note: `skipped: estimated ${formatDuration(estimate)}`,
          });
          report(rows.at(-1));
          continue;
        }
      }
      const run = await measure(process.execPath, [
        wq,
        'compute',
        String(n),
        '--threads',
        '1',
        '--algorithm',
        algorithm,
        '--json',
      ]);
      const S = parseResultLines(run.stdout)[0]?.S;
      rows.push({
        n,
        runner,
        seconds: run.seconds,
        peakRssMiB: run.peakRssMiB,
        correct: run.exitCode === 0 && S === line?.S,
        note: '',
      });
      report(rows.at(-1));
    }
  }

  console.log(
    '\n| n | runner | wall s | × baseline time | peak RSS MiB | × baseline RSS | S exact |',
  );
  console.log('|---|---|---:|---:|---:|---:|---|');
  for (const row of rows) {
    const base = baselineRows.get(row.n);
    const ratio = (a: number, b: number | undefined): string =>
      Number.isFinite(a) && b ? (a / b).toFixed(2) : '–';
    console.log(
      `| ${row.n} | ${row.runner} | ${Number.isFinite(row.seconds) ? row.seconds.toFixed(2) : '–'} | ${ratio(row.seconds, base?.seconds)} | ${Number.isFinite(row.peakRssMiB) ? row.peakRssMiB.toFixed(0) : '–'} | ${ratio(row.peakRssMiB, base?.peakRssMiB)} | ${row.correct === undefined ? row.note : row.correct ? 'yes' : 'NO'} |`,
    );
  }

  // The step's goals, checked on this run's numbers.
  const auto14 = rows.find((r) => r.n === 14 && r.runner.endsWith('auto'));
  const base14 = baselineRows.get(14);
  const goals: string[] = [];
  let ok = rows.every((r) => r.correct !== false);
  if (auto14 && base14) {
    const ratio = auto14.seconds / base14.seconds;
    goals.push(
      `wq compute 14 --threads 1: ${ratio.toFixed(2)}× the baseline's single-thread time (goal ≤ 0.5×)`,
    );
    ok &&= ratio <= 0.5;
  }
  if (options.full) {
    const run = await measure(process.execPath, [wq, 'compute', '15', '--json']);
    const S15 = parseResultLines(run.stdout)[0]?.S;
    const base15 = baselineRows.get(15);
    goals.push(
      `wq compute 15 (default threads): ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMiB.toFixed(0)} MiB (goal < 1024 MiB), S exact: ${S15 === base15?.S ? 'yes' : 'NO'}`,
    );
    ok &&= run.peakRssMiB < 1024 && S15 === base15?.S;
  }
  console.log(`\n${goals.map((g) => `- ${g}`).join('\n')}`);
  return ok;
}

function estimatedS(algorithm: (typeof ALGORITHM_CHOICES)[number], n: number): number {
  if (algorithm === 'auto') return 0;
  let seconds = 0;
  for (let d = 0; d < n; d++) seconds += estimateCost(algorithm, n, d, []).seconds;
  return seconds;
}

function formatDuration(seconds: number): string {
  if (seconds < 3600) return `${(seconds / 60).toFixed(0)} min`;
  if (seconds < 86400 * 365) return `${(seconds / 3600).toFixed(0)} h`;
  return `${(seconds / 86400 / 365).toExponential(1)} years`;
}

function report(row: Row | undefined): void {
  if (!row) return;
  const time = Number.isFinite(row.seconds) ? `${row.seconds.toFixed(2)} s` : '';
  console.error(`  n=${row.n} ${row.runner}: ${time} ${row.note}`.trimEnd());
}
