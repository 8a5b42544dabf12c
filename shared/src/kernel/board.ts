// Board rules shared by every algorithm: the allowed sizes, bitmask helpers, and legality of
// a unit's fixed rows: a prefix (the columns of the first rows) or a middle run (the columns
// of consecutive rows from `middleStart(n)` down), which is how work units are described.
import { InvalidInputError } from './errors.js';

/** Columns are bits of a 32-bit integer, so boards go up to 32×32. */
export const MAX_N = 32;

export function assertBoard(n: number, depth: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_N) {
    throw new InvalidInputError('n', n, `an integer from 1 to ${MAX_N}`);
  }
  if (!Number.isInteger(depth) || depth < 0 || depth > n - 1) {
    throw new InvalidInputError('D', depth, `an integer from 0 to n-1 = ${n - 1}`);
  }
}

/** The mask of all n columns, as a 32-bit integer (n = 32 gives -1). */
export function fullMask(n: number): number {
  return n >= 32 ? -1 : (1 << n) - 1;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Columns a queen at `column` forbids `distance` rows below it (those on the board). */
export function attackedBy(n: number, column: number, distance: number): number {
  let mask = 1 << column;
  if (column + distance < n) mask |= 1 << (column + distance);
  if (column - distance >= 0) mask |= 1 << (column - distance);
  return mask;
}

/** Columns forbidden in row `row` by the queens already placed in `columns[0..row-1]`. */
export function blockedInRow(
  n: number,
  depth: number,
  columns: ArrayLike<number>,
  row: number,
): number {
  let blocked = 0;
  for (let d = 1; d <= depth && d <= row; d++) {
    blocked |= attackedBy(n, columns[row - d] ?? 0, d);
  }
  return blocked;
}

/**
 * First row of a unit's middle run: the top row of the board's central block (rows n/2 − 1 and
 * n/2 for even n, (n−3)/2 to (n+1)/2 for odd n), which the row reversal maps onto itself.
 */
export function middleStart(n: number): number {
  return Math.max(0, Math.floor(n / 2) - 1);
}

/**
 * The fixed rows of a unit as one column per row (−1 where free), or why they are not a legal
 * partial board: columns out of range, a middle run that overlaps the prefix or leaves the
 * board, or two fixed queens within distance D that attack each other. Assumes a valid (n, D).
 */
export function fixedRows(
  n: number,
  depth: number,
  prefix: readonly number[],
  middle: readonly number[],
): Int32Array | { field: 'prefix' | 'middle'; allowed: string } {
  const start = middleStart(n);
  for (const [field, rows] of [
    ['prefix', prefix],
    ['middle', middle],
  ] as const) {
    if (!Array.isArray(rows) || !rows.every((c) => Number.isInteger(c) && c >= 0 && c < n)) {
      return { field, allowed: `columns from 0 to ${n - 1}` };
    }
  }
  if (prefix.length > n) return { field: 'prefix', allowed: `at most n = ${n} columns` };
  if (middle.length > 0 && (prefix.length > start || start + middle.length > n)) {
    return {
      field: 'middle',
      allowed: `at most ${n - start} columns from row ${start} down, below the prefix`,
    };
  }
  const rows = new Int32Array(n).fill(-1);
  prefix.forEach((c, row) => (rows[row] = c));
  middle.forEach((c, i) => (rows[start + i] = c));
  for (let row = 1; row < n; row++) {
    const column = rows[row] ?? -1;
    if (column < 0) continue;
    for (let d = 1; d <= depth && d <= row; d++) {
      const other = rows[row - d] ?? -1;
      if (other >= 0 && attackedBy(n, other, d) & (1 << column)) {
        const field = row < prefix.length ? 'prefix' : 'middle';
        return { field, allowed: `a legal placement (row ${row} is attacked)` };
      }
    }
  }
  return rows;
}

/** Throws unless `prefix` and `middle` are legal fixed rows of an (n, D) board (see `fixedRows`). */
export function assertLegalUnit(
  n: number,
  depth: number,
  prefix: readonly number[],
  middle: readonly number[],
): void {
  assertBoard(n, depth);
  const rows = fixedRows(n, depth, prefix, middle);
  if (!(rows instanceof Int32Array)) {
    const value = rows.field === 'prefix' ? prefix : middle;
    throw new InvalidInputError(rows.field, value, rows.allowed);
  }
}

/** Columns forbidden in row `row` by every fixed queen within distance D, above or below. */
export function blockedByFixed(n: number, depth: number, rows: Int32Array, row: number): number {
  let blocked = 0;
  for (let d = 1; d <= depth; d++) {
    const above = rows[row - d] ?? -1;
    const below = rows[row + d] ?? -1;
    if (above >= 0) blocked |= attackedBy(n, above, d);
    if (below >= 0) blocked |= attackedBy(n, below, d);
  }
  return blocked;
}

/** Throws unless `prefix` lists legal columns for the first rows of an (n, D) board. */
export function assertLegalPrefix(n: number, depth: number, prefix: readonly number[]): void {
  assertLegalUnit(n, depth, prefix, []);
}

/**
 * Checks `prefix`, then gives the counts no algorithm has to search for: with D = 0 no two rows
 * conflict, so n^(rows left); a full board is its own one completion. Undefined otherwise.
 */
export function countWithoutSearch(
  n: number,
  depth: number,
  prefix: readonly number[],
): bigint | undefined {
  assertLegalPrefix(n, depth, prefix);
  if (depth === 0) return BigInt(n) ** BigInt(n - prefix.length);
  if (prefix.length === n) return 1n;
  return undefined;
}
