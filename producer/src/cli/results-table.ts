// The one table of results, for `wq compute`, `wq results` and `wq sweep --wait`: a block per n,
// exact integers right-aligned, a value not stored yet shown as "missing" (never 0).
import { formatTable } from './table.js';

export interface SizeCounts {
  readonly n: number;
  /** N(n, D) indexed by D, decimal strings; undefined where missing. */
  readonly N: ReadonlyArray<string | undefined>;
  readonly S?: string | undefined;
}

/**
 *   n = 4
 *      D  N(4, D)
 *      0      256
 *      …
 *   S(4)      276
 */
export function resultsTable(sizes: readonly SizeCounts[]): string {
  return sizes.map(sizeTable).join('\n\n') + (sizes.length ? '\n' : '');
}

export function sizeTable({ n, N, S }: SizeCounts): string {
  const rows = N.map((value, depth) => [`${depth}`, value ?? 'missing']);
  rows.push([`S(${n})`, S ?? 'missing']);
  return [`n = ${n}`, ...formatTable([['D', `N(${n}, D)`], ...rows], ['right', 'right'])].join(
    '\n',
  );
}
