// Board rules shared by every algorithm: the allowed sizes, bitmask helpers, and legality of
// a prefix (the columns of the first rows, which is how work units are described).
import { InvalidInputError } from '../errors.js';

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

/** Index of the lowest set bit of a non-zero 32-bit integer. */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
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

/** Throws unless `prefix` lists legal columns for the first rows of an (n, D) board. */
export function assertLegalPrefix(n: number, depth: number, prefix: readonly number[]): void {
  assertBoard(n, depth);
  if (prefix.length > n) {
    throw new InvalidInputError('prefix', prefix, `at most n = ${n} columns`);
  }
  prefix.forEach((column, row) => {
    if (!Number.isInteger(column) || column < 0 || column >= n) {
      throw new InvalidInputError('prefix', prefix, `columns from 0 to ${n - 1}`);
    }
    if (blockedInRow(n, depth, prefix, row) & (1 << column)) {
      throw new InvalidInputError('prefix', prefix, `a legal placement (row ${row} is attacked)`);
    }
  });
}
