// Depth-first search with column/diagonal bitmasks whose bits expire D rows after the queen
// that set them. No memory beyond the recursion: the algorithm of choice for large D, where
// almost every partial board is distinct and merging states saves nothing.
import { assertLegalPrefix, fullMask, popcount } from './board.js';
import type { ProgressCallback } from './progress.js';

/**
 * Number of legal completions of `prefix` on an (n, D) board. Plain doubles are exact here:
 * reaching 2^53 would take years of enumeration, so the count never leaves the safe range.
 */
export function countByDfs(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
): number {
  assertLegalPrefix(n, depth, prefix);
  const start = prefix.length;
  if (start === n) return 1;

  const full = fullMask(n);
  const queens = new Int32Array(n);
  prefix.forEach((column, row) => (queens[row] = column));

  // Rebuild the three masks as seen from row `start`; only queens within distance D count.
  let cols = 0;
  let left = 0; // bit c+d: the queen d rows up at column c attacks down-right
  let right = 0; // bit c-d: down-left
  for (let d = 1; d <= depth && d <= start; d++) {
    const c = queens[start - d] ?? 0;
    cols |= 1 << c;
    if (c + d < n) left |= 1 << (c + d);
    if (c - d >= 0) right |= 1 << (c - d);
  }

  const last = n - 1;
  // What survives of a mask when the queen in column e falls out of reach (D+1 rows up).
  // Exact: two queens within D rows never share a line, so no other queen set these bits.
  // D = 0: every queen's attacks end at once, so nothing survives.
  const keepCol = new Int32Array(n);
  const keepLeft = new Int32Array(n);
  const keepRight = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    keepCol[e] = depth === 0 ? 0 : ~(1 << e);
    keepLeft[e] = depth === 0 ? 0 : e + depth + 1 < n ? ~(1 << (e + depth + 1)) : -1;
    keepRight[e] = depth === 0 ? 0 : e - depth - 1 >= 0 ? ~(1 << (e - depth - 1)) : -1;
  }

  // Shaped for V8: small-integer arguments, no allocation, the expiry masks looked up once per
  // node, and the last two rows counted in one loop with a popcount (the two deepest levels
  // hold most of the tree, so they cost no calls).
  const search = (row: number, c0: number, l0: number, r0: number, allowed: number): number => {
    let free = ~(c0 | l0 | r0) & allowed;
    if (row === last) return popcount(free);
    const expiring = depth === 0 ? 0 : row - depth; // this queen's attacks stop before row + 1
    let kc = -1;
    let kl = -1;
    let kr = -1;
    if (expiring >= 0) {
      const e = depth === 0 ? 0 : queens[expiring]!;
      kc = keepCol[e]!;
      kl = keepLeft[e]!;
      kr = keepRight[e]!;
    }
    let total = 0;
    if (row === last - 1) {
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        const c = (c0 | bit) & kc;
        const l = ((l0 | bit) << 1) & kl;
        const r = ((r0 | bit) >>> 1) & kr;
        total += popcount(~(c | l | r) & full);
      }
      return total;
    }
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      queens[row] = 31 - Math.clz32(bit);
      total += search(
        row + 1,
        (c0 | bit) & kc,
        ((l0 | bit) << 1) & full & kl,
        ((r0 | bit) >>> 1) & kr,
        full,
      );
    }
    return total;
  };

  if (!onProgress || start >= last) return search(start, cols, left, right, full);

  // Progress: run the first level branch by branch and report the share of branches done.
  const branches = popcount(~(cols | left | right) & full);
  let done = 0;
  let total = 0;
  let remaining = ~(cols | left | right) & full;
  while (remaining !== 0) {
    const bit = remaining & -remaining;
    remaining ^= bit;
    total += search(start, cols, left, right, bit);
    onProgress(++done / branches);
  }
  return total;
}
