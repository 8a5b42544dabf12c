// Transfer matrix over windows: a window is the columns of the last D rows, which are all
// within distance D of each other and so form a conflict-free ordinary-queens placement. The
// windows are enumerated once, in lexicographic order (oldest row first), as the deepest level
// of a trie; each later row is one sparse matrix-vector step over that list. No sorting per
// row, and memory is the number of windows rather than the number of generated successors.
import { assertLegalPrefix, attackedBy, fullMask, popcount } from './board.js';
import { MAX_ADDENDS, ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';

/**
 * The successors of window (o1, …, oD) are the windows (o2, …, oD, c): the children of the
 * trie node (o2, …, oD), one contiguous slice, minus the at most three columns c that o1
 * attacks from distance D.
 */
export interface WindowTable {
  readonly n: number;
  readonly depth: number;
  readonly windowCount: number;
  /** Per node of trie level D-1: index of its first child window (plus one sentinel). */
  readonly childBase: Uint32Array;
  /** Per node of trie level D-1: the columns of its child windows. */
  readonly childMask: Int32Array;
  /** Per window: index of its suffix (o2, …, oD) in trie level D-1. */
  readonly suffix: Uint32Array;
  /** Per window: its oldest column o1. */
  readonly oldest: Uint8Array;
  /** Windows [rangeStart, rangeEnd) extend the `focus` sequence given to the builder. */
  readonly rangeStart: number;
  readonly rangeEnd: number;
}

/**
 * Whether a count keeps only half the windows by the mirror symmetry (see the step loop): from
 * a symmetric start (no prefix), with D ≥ 2, and n ≤ 16 so that sums stay below 2^32.
 */
export function usesMirrorHalf(n: number, depth: number, prefixLength: number): boolean {
  return prefixLength === 0 && depth >= 2 && 2 * n <= MAX_ADDENDS;
}

/** Bytes one window costs (table plus two count vectors of `countBytes` per kept window). */
export function bytesPerWindow(countBytes: number, mirrored: boolean): number {
  return 4 + 1 + 12 + (mirrored ? 1 : 2) * countBytes;
}

/**
 * Builds the window table for 1 ≤ D, and locates the windows extending `focus` (at most D
 * columns; an empty focus selects every window).
 */
export function buildWindowTable(n: number, depth: number, focus: readonly number[]): WindowTable {
  const full = fullMask(n);
  // Level k of the trie holds the legal k-row placements in lexicographic order.
  let count = 1;
  let cols = new Int32Array(1);
  let left = new Int32Array(1);
  let right = new Int32Array(1);
  let suffixRank = new Uint32Array(1);
  let oldestCol = new Uint8Array(1);
  let prevBase = new Uint32Array(2);
  let prevMask = new Int32Array(1);
  let focusLo = 0;
  let focusHi = 1;

  for (let level = 0; level < depth; level++) {
    const base = new Uint32Array(count + 1);
    const mask = new Int32Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const free = ~((cols[i] ?? 0) | (left[i] ?? 0) | (right[i] ?? 0)) & full;
      mask[i] = free;
      base[i] = total;
      total += popcount(free);
    }
    base[count] = total;

    // Follow the focus: a single path while it lasts, then the whole subtree below it.
    if (level < focus.length) {
      const c = focus[level] ?? 0;
      const m = mask[focusLo] ?? 0;
      if (!(m & (1 << c))) return emptyTable(n, depth, base, mask);
      focusLo = (base[focusLo] ?? 0) + popcount(m & ((1 << c) - 1));
      focusHi = focusLo + 1;
    } else {
      focusLo = base[focusLo] ?? 0;
      focusHi = base[focusHi] ?? 0;
    }

    const last = level + 1 === depth;
    const nextCols = last ? cols : new Int32Array(total);
    const nextLeft = last ? left : new Int32Array(total);
    const nextRight = last ? right : new Int32Array(total);
    const nextSuffix = new Uint32Array(total);
    const nextOldest = new Uint8Array(total);
    for (let i = 0, t = 0; i < count; i++) {
      let free = mask[i] ?? 0;
      const s = suffixRank[i] ?? 0;
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        const c = 31 - Math.clz32(bit);
        if (!last) {
          nextCols[t] = (cols[i] ?? 0) | bit;
          nextLeft[t] = (((left[i] ?? 0) | bit) << 1) & full;
          nextRight[t] = ((right[i] ?? 0) | bit) >>> 1;
        }
        // The suffix drops the oldest column: it is child c of this node's suffix one level up.
        nextSuffix[t] =
          level === 0 ? 0 : (prevBase[s] ?? 0) + popcount((prevMask[s] ?? 0) & ((1 << c) - 1));
        nextOldest[t] = level === 0 ? c : (oldestCol[i] ?? 0);
        t++;
      }
    }
    cols = nextCols;
    left = nextLeft;
    right = nextRight;
    suffixRank = nextSuffix;
    oldestCol = nextOldest;
    prevBase = base;
    prevMask = mask;
    count = total;
  }
  return {
    n,
    depth,
    windowCount: count,
    childBase: prevBase,
    childMask: prevMask,
    suffix: suffixRank,
    oldest: oldestCol,
    rangeStart: focusLo,
    rangeEnd: focusHi,
  };
}

function emptyTable(
  n: number,
  depth: number,
  childBase: Uint32Array,
  childMask: Int32Array,
): WindowTable {
  return {
    n,
    depth,
    windowCount: 0,
    childBase,
    childMask,
    suffix: new Uint32Array(0),
    oldest: new Uint8Array(0),
    rangeStart: 0,
    rangeEnd: 0,
  };
}

/** Number of legal completions of `prefix` on an (n, D) board, by window transfer steps. */
export function countByWindowTransfer(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
): bigint {
  assertLegalPrefix(n, depth, prefix);
  if (depth === 0) return BigInt(n) ** BigInt(n - prefix.length);
  // A prefix longer than a window only matters through its last D columns.
  const focus = prefix.length > depth ? prefix.slice(prefix.length - depth) : prefix;
  if (prefix.length === n) return 1n;
  const startRow = Math.max(prefix.length, depth); // D ≤ n−1, so rows remain
  const table = buildWindowTable(n, depth, focus);
  const steps = n - startRow;
  onProgress?.(1 / (steps + 1));

  const W = table.windowCount;
  // Mirror symmetry: reflecting every column reverses lexicographic order, so window t and
  // window W−1−t are mirror images and, from a symmetric start (no prefix), always hold the same
  // count. Keep only the first half. For D ≥ 2 no window is its own mirror, so W is even; a
  // window then receives from at most 2n ≤ 32 windows (n ≤ 16), keeping the sums below 2^32.
  const mirrored = usesMirrorHalf(n, depth, prefix.length);
  const kept = mirrored ? W / 2 : W;
  const stepping = { table, kept, steps, conflictOf: conflictMasks(n, depth), onProgress };
  const total = fitsInDoubles(n, depth, W, steps)
    ? BigInt(stepInDoubles(stepping))
    : stepInResidues(stepping, new ResidueSystem(n));
  return mirrored ? 2n * total : total;
}

/** Columns the oldest queen of a window forbids in the next row, by that queen's column. */
function conflictMasks(n: number, depth: number): Int32Array {
  const conflictOf = new Int32Array(n);
  for (let c = 0; c < n; c++) conflictOf[c] = attackedBy(n, c, depth);
  return conflictOf;
}

/**
 * Whether plain doubles stay exact: every window holds D distinct columns, so it has at most
 * n − D successors, and no count can exceed windows × (n − D)^steps. Below 2^53 one Float64 per
 * window is exact, needs no reduction, and moves less memory than the residues.
 */
export function fitsInDoubles(n: number, depth: number, windows: number, steps: number): boolean {
  return windows * (n - depth) ** steps <= Number.MAX_SAFE_INTEGER;
}

interface Stepping {
  readonly table: WindowTable;
  /** Windows kept: all, or the first half under the mirror symmetry. */
  readonly kept: number;
  readonly steps: number;
  readonly conflictOf: Int32Array;
  readonly onProgress: ProgressCallback | undefined;
}

// The two step loops below are the same push (each window's count to its successor slice),
// written out twice so each stays monomorphic for V8: one on doubles, one on residues. Plain
// typed-array indexing (the `!`s are in bounds by construction), no allocation.

function stepInDoubles({ table, kept, steps, conflictOf, onProgress }: Stepping): number {
  const { childBase, childMask, suffix, oldest, windowCount } = table;
  const last = windowCount - 1;
  let current = new Float64Array(kept);
  let next = new Float64Array(kept);
  current.fill(1, Math.min(table.rangeStart, kept), Math.min(table.rangeEnd, kept));
  for (let step = 0; step < steps; step++) {
    next.fill(0);
    for (let w = 0; w < kept; w++) {
      const count = current[w]!;
      if (count === 0) continue;
      const conflict = conflictOf[oldest[w]!]!;
      const j = suffix[w]!;
      let free = childMask[j]!;
      let t = childBase[j]!;
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        if ((bit & conflict) === 0) next[t < kept ? t : last - t]! += count; // else: its mirror
        t++;
      }
    }
    [current, next] = [next, current];
    onProgress?.((step + 2) / (steps + 1));
  }
  let total = 0;
  for (let w = 0; w < kept; w++) total += current[w]!;
  return total;
}

function stepInResidues(
  { table, kept, steps, conflictOf, onProgress }: Stepping,
  residues: ResidueSystem,
): bigint {
  const { childBase, childMask, suffix, oldest, windowCount } = table;
  const last = windowCount - 1;
  const P = residues.size;
  const primes = residues.primes;
  let current = new Uint32Array(kept * P);
  let next = new Uint32Array(kept * P);
  current.fill(1, Math.min(table.rangeStart, kept) * P, Math.min(table.rangeEnd, kept) * P);
  for (let step = 0; step < steps; step++) {
    next.fill(0);
    for (let w = 0; w < kept; w++) {
      const from = w * P;
      let nonZero = 0;
      for (let i = 0; i < P; i++) nonZero |= current[from + i]!;
      if (nonZero === 0) continue;
      const conflict = conflictOf[oldest[w]!]!;
      const j = suffix[w]!;
      let free = childMask[j]!;
      let t = childBase[j]!;
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        if ((bit & conflict) === 0) {
          const to = (t < kept ? t : last - t) * P; // a dropped half's window: its mirror
          for (let i = 0; i < P; i++) next[to + i]! += current[from + i]!;
        }
        t++;
      }
    }
    // At most 32 windows feed one window (see above), so the sums stayed below 2^32.
    for (let i = 0; i < P; i++) {
      const p = primes[i]!;
      for (let k = i; k < kept * P; k += P) next[k]! %= p;
    }
    [current, next] = [next, current];
    onProgress?.((step + 2) / (steps + 1));
  }
  return residues.sum(current, kept);
}
