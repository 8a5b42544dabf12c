// How results and progress are printed on a terminal: a table per n and a progress bar. Missing
// values print as "missing", never 0. (JSON lines and CSV: result-formats.ts in the client.)
import type { SizeResults, SweepProgress } from '@weak-queens/shared/client';

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
