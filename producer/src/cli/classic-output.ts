// How classic results are printed: one JSON line per n (`{"n":16,"Q":"14772512","unique":"1846955"}`)
// or a table that says whether each value agrees with its published sequence.
import { CLASSIC_QUEENS, type ClassicResult, UNIQUE_QUEENS } from '@weak-queens/shared/contracts';

export function classicJsonLine(n: number, result: ClassicResult | undefined): string {
  return JSON.stringify({ n, Q: result?.Q ?? null, unique: result?.unique ?? null });
}

/** Against OEIS A000170 / A002562 where they list n: `agrees`, `DISAGREES` or `-`. */
function published(value: string | undefined, list: readonly string[], n: number): string {
  const known = list[n - 1];
  if (value === undefined || known === undefined) return '-';
  return value === known ? 'agrees' : `DISAGREES (${known})`;
}

export function classicTable(
  ns: readonly number[],
  results: ReadonlyMap<number, ClassicResult>,
): string {
  const rows = ns.map((n) => {
    const r = results.get(n);
    return [
      String(n),
      r?.Q ?? 'missing',
      r?.unique ?? 'missing',
      r ? String(r.units) : '',
      r ? String(r.checked) : '',
      `${published(r?.Q, CLASSIC_QUEENS, n)} / ${published(r?.unique, UNIQUE_QUEENS, n)}`,
    ];
  });
  const header = ['n', 'Q(n)', 'unique', 'units', 'checked', 'A000170 / A002562'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  return [line(header), ...rows.map(line)].map((l) => l.trimEnd() + '\n').join('');
}
