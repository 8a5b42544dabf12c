// The human-readable table of `wq compute`: one block per n, exact integers right-aligned.
import type { SizeResult } from '../compute/size-totals.js';

/**
 *   n = 4
 *      D  N(4, D)
 *      0      256
 *      …
 *   S(4)      276
 */
export function formatSizeTable(result: SizeResult): string {
  const { n, counts, total } = result;
  const rows: Array<[string, string]> = counts.map((count, depth) => [`${depth}`, `${count}`]);
  rows.push([`S(${n})`, `${total}`]);
  const header: [string, string] = ['D', `N(${n}, D)`];
  const left = Math.max(header[0].length, ...rows.map(([label]) => label.length));
  const right = Math.max(header[1].length, ...rows.map(([, value]) => value.length));
  const line = ([label, value]: [string, string]): string =>
    `${label.padStart(left)}  ${value.padStart(right)}`;
  return [`n = ${n}`, line(header), ...rows.map(line)].join('\n');
}

/** The `--json` form: one line, big integers as decimal strings, N indexed by D. */
export function formatSizeJson(result: SizeResult): string {
  return JSON.stringify({
    n: result.n,
    S: result.total.toString(),
    N: result.counts.map((count) => count.toString()),
  });
}
