// How results and progress are printed on a terminal: a table per n and a progress bar. Missing
// values print as "missing", never 0. (JSON lines and CSV: result-formats.ts in the client.)
import type { SizeResults, SweepProgress, UnfitUnit } from '@weak-queens/shared/client';

export function resultsTable(results: readonly SizeResults[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`n = ${r.n}`);
    const width = Math.max(...r.N.map((v) => (v ?? 'missing').length), 1);
    r.N.forEach((v, d) =>
      lines.push(`  D = ${String(d).padStart(2)}  ${(v ?? 'missing').padStart(width)}`),
    );
    lines.push(`  S(${r.n}) = ${r.S ?? 'missing'}`, '');
  }
  return lines.join('\n');
}

/** `[#####.....]  45%  5/11 n  120/167 units` */
export function progressLine(p: SweepProgress, width = 30): string {
  const fraction = p.units ? p.unitsDone / p.units : p.done / Math.max(1, p.total);
  const filled = Math.round(fraction * width);
  const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
  return `[${bar}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${p.done}/${p.total} n  ${p.unitsDone}/${p.units} units`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

/** Units listed by `unfitLines` before "… and k more". */
const UNFIT_SHOWN = 5;

/**
 * One line per unit no live worker can hold, and what to do about it:
 * `unit n12-d11 needs 20 MiB per slot; the largest live worker has 4 MiB: wq replan s-1, or …`
 */
export function unfitLines(p: SweepProgress): string[] {
  const unfit: UnfitUnit[] = p.sizes.flatMap((s) => s.unfit ?? []);
  if (unfit.length === 0) return [];
  const largest = unfit[0]?.largestSlotBytes ?? 0;
  const need = Math.max(...unfit.map((u) => u.bytes));
  const lines = unfit
    .slice(0, UNFIT_SHOWN)
    .map(
      (u) =>
        `  unit ${u.jobId} of N(${u.n}, ${u.depth}) needs ${formatBytes(u.bytes)} per slot (queue ${u.queue})`,
    );
  if (unfit.length > UNFIT_SHOWN) lines.push(`  … and ${unfit.length - UNFIT_SHOWN} more`);
  const has =
    largest > 0
      ? `the largest live worker has ${formatBytes(largest)} per slot`
      : 'no worker is live';
  return [
    `${unfit.length} unit(s) fit no live worker (${has}):`,
    ...lines,
    `  wq replan ${p.sweep.id} plans them for the workers there are, or start a worker with at least ${formatBytes(need)} per slot (WQ_WORKER_MEMORY ÷ slots)`,
  ];
}
