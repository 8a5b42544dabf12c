// Transfer matrix over windows: a window is the columns of D consecutive rows, which are all
// within distance D of each other and so form a conflict-free ordinary-queens placement. The
// windows are enumerated once, in lexicographic order (oldest row first), as the deepest level
// of a trie; each row is one sparse matrix-vector step over that list, no sorting per row.
// A whole (n, D) meets in the middle: it runs half the rows and pairs each window with its
// reversal (see countByWindowTransfer).
import { assertLegalPrefix, attackedBy, fullMask, popcount } from './board.js';
import { MAX_ADDENDS, ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';

/**
 * The windows, stored through their suffixes: window (o1, …, oD) is child oD of the trie node
 * (o1, …, oD−1) at level D−1, so a node's children are one contiguous slice of windows, and its
 * suffix (o2, …, oD) is another node of level D−1. Nothing is stored per window: a step walks
 * the windows in order through `windowBits`, whose row o1 marks the suffixes s for which
 * (o1, s) is a window (lexicographic order is row by row, then by s).
 */
export interface WindowTable {
  readonly n: number;
  readonly depth: number;
  readonly windowCount: number;
  /** Windows visited: all of them, or the first half under the mirror symmetry. */
  readonly kept: number;
  /**
   * Per node s of trie level D−1, interleaved so one cache line serves a random lookup:
   * nodes[2s] is the index of its first child window, nodes[2s+1] the columns of its children.
   */
  readonly nodes: Int32Array;
  /** Per node of trie level D−1: the index of the node with its columns in reverse order. */
  readonly reversed: Uint32Array;
  /** Rows of `stride` words, one row per oldest column that kept windows start with. */
  readonly windowBits: Int32Array;
  readonly stride: number;
  /** Windows [rangeStart, rangeEnd) extend the `focus` sequence given to the builder. */
  readonly rangeStart: number;
  readonly rangeEnd: number;
}

/**
 * Whether a count keeps only half the windows: reflecting every column reverses lexicographic
 * order, so window t and window W−1−t are mirror images. The count vectors below (placements
 * that *start* with a window) begin all ones and are therefore mirror-symmetric whatever the
 * prefix; for D ≥ 2 no window is its own mirror, so W is even.
 */
export function usesMirrorHalf(depth: number): boolean {
  return depth >= 2;
}

/** How a window-transfer count runs and what it stores per window. */
export interface TransferShape {
  readonly mirrored: boolean;
  /** Whether the whole (n, D) meets in the middle (empty prefix) or steps every row. */
  readonly meetsInMiddle: boolean;
  /** Steps the longer count vector takes. */
  readonly steps: number;
  readonly counts: 'uint16' | 'float64' | 'residues';
  /** Bytes of one count vector per kept window. */
  readonly countBytes: number;
}

export function transferShape(n: number, depth: number, prefixLength: number): TransferShape {
  const meetsInMiddle = prefixLength === 0;
  const rows = n - Math.max(depth, prefixLength);
  const steps = meetsInMiddle ? Math.ceil(rows / 2) : rows;
  // Every row after a window's D rows avoids the D columns of the window before it, so it has
  // at most n − D choices and no count can exceed (n − D)^steps.
  const bound = (n - depth) ** steps;
  const counts = bound < 2 ** 16 ? 'uint16' : bound < DOUBLE_LIMIT ? 'float64' : 'residues';
  const countBytes =
    counts === 'uint16' ? 2 : counts === 'float64' ? 8 : 4 * new ResidueSystem(n).size;
  return { mirrored: usesMirrorHalf(depth), meetsInMiddle, steps, counts, countBytes };
}

/** Counts in doubles stay below 2^52, so their 26-bit halves multiply exactly (see dot). */
const DOUBLE_LIMIT = 2 ** 52;

/**
 * Builds the window table for 1 ≤ D, and locates the windows extending `focus` (at most D
 * columns; an empty focus selects every window). Levels below D−1 are temporary; level D is
 * never materialised.
 */
export function buildWindowTable(
  n: number,
  depth: number,
  focus: readonly number[],
  mirrored: boolean,
): WindowTable {
  const full = fullMask(n);
  const rows = mirrored ? Math.ceil(n / 2) : n; // oldest columns of kept windows
  const below = (c: number): number => (1 << c) - 1;
  // Per node of the current level: its placement's masks, the index of its suffix (oldest
  // column dropped) one level up, its oldest column, and the index of its reversal; `nodes`
  // as in WindowTable (the previous level's in `prevNodes`).
  let count = 1;
  let cols = new Int32Array(1);
  let left = new Int32Array(1);
  let right = new Int32Array(1);
  let suffixRank = new Uint32Array(1);
  let oldestCol = new Uint8Array(1);
  let reversed = new Uint32Array(1);
  let nodes = Int32Array.of(0, full, 0, 0);
  let prevNodes = new Int32Array(2);
  let focusLo = 0;
  let focusHi = 1;
  let stride = 1;
  let windowBits = new Int32Array(rows).fill(1); // D = 1: every (o1, root) is a window
  // The last level keeps its nodes' suffixes and oldest columns only for one chunk at a time.
  const chunkSuffix = new Uint32Array(CHUNK + 32);
  const chunkOldest = new Uint8Array(CHUNK + 32);

  for (let level = 0; level + 1 < depth; level++) {
    const total = fillBases(nodes, count);
    [focusLo, focusHi] = followFocus(focus, level, nodes, focusLo, focusHi);
    const last = level + 2 === depth; // generating level D−1, whose children are the windows
    const next = new Int32Array(2 * total + 2);
    const nextReversed = new Uint32Array(total);
    const nextCols = last ? cols : new Int32Array(total);
    const nextLeft = last ? left : new Int32Array(total);
    const nextRight = last ? right : new Int32Array(total);
    const nextSuffix = last ? chunkSuffix : new Uint32Array(total);
    const nextOldest = last ? chunkOldest : new Uint8Array(total);
    if (last) {
      stride = Math.ceil(total / 32);
      windowBits = new Int32Array(rows * stride);
    }
    let chunkStart = 0; // last level: first node whose reversal is still to compute
    for (let i = 0, t = 0; i < count; i++) {
      let free = nodes[2 * i + 1]!;
      const s = suffixRank[i]!;
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        const c = 31 - Math.clz32(bit);
        const cs = cols[i]! | bit;
        const ls = ((left[i]! | bit) << 1) & full;
        const rs = (right[i]! | bit) >>> 1;
        const childFree = ~(cs | ls | rs) & full;
        next[2 * t + 1] = childFree;
        // The suffix drops the oldest column: it is child c of this node's suffix one level up.
        const suffix =
          level === 0 ? 0 : prevNodes[2 * s]! + popcount(prevNodes[2 * s + 1]! & below(c));
        const oldest = level === 0 ? c : oldestCol[i]!;
        if (last) {
          chunkSuffix[t - chunkStart] = suffix;
          chunkOldest[t - chunkStart] = oldest;
          // Window (this node, x) has suffix (its suffix, x): mark it in row `oldest`.
          if (oldest < rows) {
            let x = childFree;
            const row = oldest * stride;
            const first = nodes[2 * suffix]!;
            const siblings = nodes[2 * suffix + 1]!;
            while (x !== 0) {
              const xb = x & -x;
              x ^= xb;
              const w = first + popcount(siblings & (xb - 1));
              windowBits[row + (w >>> 5)]! |= 1 << (w & 31);
            }
          }
        } else {
          nextCols[t] = cs;
          nextLeft[t] = ls;
          nextRight[t] = rs;
          nextSuffix[t] = suffix;
          nextOldest[t] = oldest;
        }
        t++;
      }
      if (last && (t - chunkStart >= CHUNK || i + 1 === count)) {
        reverseNodes(nodes, reversed, nextSuffix, nextOldest, t - chunkStart, nextReversed, chunkStart);
        chunkStart = t;
      }
    }
    if (!last) reverseNodes(nodes, reversed, nextSuffix, nextOldest, total, nextReversed, 0);
    cols = nextCols;
    left = nextLeft;
    right = nextRight;
    suffixRank = nextSuffix;
    oldestCol = nextOldest;
    reversed = nextReversed;
    prevNodes = nodes;
    nodes = next;
    count = total;
  }
  const windowCount = fillBases(nodes, count);
  [focusLo, focusHi] = followFocus(focus, depth - 1, nodes, focusLo, focusHi);
  return {
    n,
    depth,
    windowCount,
    kept: mirrored ? windowCount / 2 : windowCount,
    nodes,
    reversed,
    windowBits,
    stride,
    rangeStart: focusLo,
    rangeEnd: focusHi,
  };
}

/** Fills each node's first-child index from the child masks (and the sentinel); the total. */
function fillBases(nodes: Int32Array, count: number): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    nodes[2 * i] = total;
    total += popcount(nodes[2 * i + 1]!);
  }
  nodes[2 * count] = total;
  return total;
}

/**
 * out[at + k] = index of the reversal of the node with suffix `suffix[k]` and oldest column
 * `oldest[k]` one level down: child `oldest` of the suffix's reversal. The lookups are random;
 * two tight loops let the processor keep many of them in flight at once.
 */
function reverseNodes(
  nodes: Int32Array,
  reversed: Uint32Array,
  suffix: Uint32Array,
  oldest: Uint8Array,
  length: number,
  out: Uint32Array,
  at: number,
): void {
  for (let k = 0; k < length; k++) out[at + k] = reversed[suffix[k]!]!;
  for (let k = 0; k < length; k++) {
    const r = out[at + k]!;
    out[at + k] = nodes[2 * r]! + popcount(nodes[2 * r + 1]! & ((1 << oldest[k]!) - 1));
  }
}

/** Follows the focus one level down: a single path while it lasts, then the whole subtree. */
function followFocus(
  focus: readonly number[],
  level: number,
  nodes: Int32Array,
  lo: number,
  hi: number,
): [number, number] {
  if (level >= focus.length) return [nodes[2 * lo] ?? 0, nodes[2 * hi] ?? 0];
  if (hi <= lo) return [0, 0];
  const c = focus[level] ?? 0;
  const m = nodes[2 * lo + 1] ?? 0;
  if (!(m & (1 << c))) return [0, 0];
  const at = (nodes[2 * lo] ?? 0) + popcount(m & ((1 << c) - 1));
  return [at, at + 1];
}

/**
 * Walks the kept windows in lexicographic order, a chunk at a time, writing each window's
 * suffix and oldest column into small scratch arrays, so that the hot loops below index plain
 * typed arrays while the table stores no per-window arrays.
 */
class WindowCursor {
  readonly suffix = new Uint32Array(CHUNK);
  readonly oldest = new Uint8Array(CHUNK);
  /** After `reverse`: per window of the chunk, the kept index holding its reversal's count. */
  readonly reversal = new Uint32Array(CHUNK);
  private row = 0;
  private word = 0;
  private bits: number;
  private visited = 0;

  constructor(private readonly table: WindowTable) {
    this.bits = table.windowBits[0] ?? 0;
  }

  /** Fills the scratch arrays with the next windows; returns how many (0 at the end). */
  next(): number {
    const { windowBits, stride, kept } = this.table;
    const rows = windowBits.length / stride;
    let filled = 0;
    if (this.row >= rows) return 0;
    while (filled < CHUNK && this.visited < kept) {
      if (this.bits === 0) {
        if (++this.word === stride) {
          this.word = 0;
          if (++this.row >= rows) break;
        }
        this.bits = windowBits[this.row * stride + this.word]!;
        continue;
      }
      const bit = this.bits & -this.bits;
      this.bits ^= bit;
      this.suffix[filled] = this.word * 32 + 31 - Math.clz32(bit);
      this.oldest[filled] = this.row;
      filled++;
      this.visited++;
    }
    return filled;
  }

  /**
   * Window rev(o1, s) = (rev s, o1) is child o1 of the reversal of node s; under the mirror
   * a dropped window reads its mirror image W−1−r.
   */
  reverse(filled: number): void {
    const { nodes, reversed, kept, windowCount } = this.table;
    reverseNodes(nodes, reversed, this.suffix, this.oldest, filled, this.reversal, 0);
    const last = windowCount - 1;
    for (let k = 0; k < filled; k++) {
      const r = this.reversal[k]!;
      if (r >= kept) this.reversal[k] = last - r;
    }
  }
}

const CHUNK = 4096;

/**
 * Number of legal completions of `prefix` on an (n, D) board.
 *
 * G_m(u), the number of m-row placements whose first D rows are window u = (o1, s), is the sum
 * of G_{m−1} over the windows (s, x) that o1 does not attack from distance D: the children of
 * trie node s, one contiguous slice. G_D is all ones. With a prefix, the answer is the sum of
 * G over the windows extending it. Without one, the whole count meets in the middle: a board
 * splits at rows k−D … k−1 (window w) into its first k rows and its last n−k+D, and every pair
 * of rows within distance D lies in one of the two, so by the reversal of the row order
 * N(n, D) = Σ_w G_k(rev w) · G_{n−k+D}(w). With k ≈ (n+D)/2 that is half the steps.
 */
export function countByWindowTransfer(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
): bigint {
  assertLegalPrefix(n, depth, prefix);
  if (depth === 0) return BigInt(n) ** BigInt(n - prefix.length);
  if (prefix.length === n) return 1n;
  // A prefix longer than a window only matters through its last D columns.
  const focus = prefix.length > depth ? prefix.slice(prefix.length - depth) : prefix;
  const shape = transferShape(n, depth, prefix.length);
  const table = buildWindowTable(n, depth, focus, shape.mirrored);
  const rows = n - Math.max(depth, prefix.length);
  const conflictOf = new Int32Array(n);
  for (let c = 0; c < n; c++) conflictOf[c] = attackedBy(n, c, depth);
  // The longer vector's steps plus one unit for the table, one for the final sum.
  const units = shape.steps + 2;
  onProgress?.(1 / units);
  const run = <V>(step: Stepper<V>): bigint => {
    let current = step.ones();
    let next = step.zeros();
    for (let done = 0; done < shape.steps; done++) {
      step.run(current, next);
      [current, next] = [next, current];
      onProgress?.((done + 2) / units);
    }
    if (!shape.meetsInMiddle) return step.rangeSum(current);
    // An even number of rows pairs G_k with itself; an odd one G_k (next) with G_k+1.
    const total = step.dot(2 * shape.steps === rows ? current : next, current);
    return shape.mirrored ? 2n * total : total;
  };
  let total: bigint;
  switch (shape.counts) {
    case 'uint16':
      total = run(smallStepper(table, conflictOf));
      break;
    case 'float64':
      total = run(doubleStepper(table, conflictOf));
      break;
    case 'residues':
      total = run(residueStepper(table, conflictOf, new ResidueSystem(n)));
      break;
  }
  onProgress?.(1);
  return total;
}

/** The step, dot product and range sum for one arithmetic, over typed-array count vectors. */
interface Stepper<V> {
  ones(): V;
  zeros(): V;
  /** to = one step of from. */
  run(from: V, to: V): void;
  /** Σ over kept windows u of a(u) · b(rev u) (under the mirror, half the full sum). */
  dot(a: V, b: V): bigint;
  /** Σ over the focus range (every window, not just the kept ones). */
  rangeSum(v: V): bigint;
}

// The step loops below are the same pull (each kept window sums its successors' counts, the
// children of its suffix minus the at most three columns its oldest queen attacks), written out
// per arithmetic so each stays monomorphic for V8. Plain typed-array indexing (the `!`s are in
// bounds by construction); a child in the dropped half reads its mirror image W−1−t. Exact
// sums stay in doubles below 2^53 and become BigInt only every 2^52 (FLUSH).

const FLUSH = 2 ** 52;

function smallStepper(table: WindowTable, conflictOf: Int32Array): Stepper<Uint16Array> {
  const { nodes, kept, windowCount } = table;
  const last = windowCount - 1;
  return {
    ones: () => new Uint16Array(kept).fill(1),
    zeros: () => new Uint16Array(kept),
    run(from, to) {
      const cursor = new WindowCursor(table);
      const { suffix, oldest } = cursor;
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        for (let i = 0; i < m; i++, u++) {
          const conflict = conflictOf[oldest[i]!]!;
          const s = suffix[i]!;
          let free = nodes[2 * s + 1]!;
          let t = nodes[2 * s]!;
          let sum = 0;
          while (free !== 0) {
            const bit = free & -free;
            free ^= bit;
            if ((bit & conflict) === 0) sum += from[t < kept ? t : last - t]!;
            t++;
          }
          to[u] = sum;
        }
      }
    },
    dot(a, b) {
      // Products stay below 2^32, so a double takes 2^20 of them before a flush.
      const cursor = new WindowCursor(table);
      const { reversal } = cursor;
      let flushed = 0n;
      let acc = 0;
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        cursor.reverse(m);
        for (let i = 0; i < m; i++, u++) acc += a[u]! * b[reversal[i]!]!;
        if (acc >= FLUSH) {
          flushed += BigInt(acc);
          acc = 0;
        }
      }
      return flushed + BigInt(acc);
    },
    rangeSum(v) {
      let total = 0;
      for (let t = table.rangeStart; t < table.rangeEnd; t++) total += v[t < kept ? t : last - t]!;
      return BigInt(total); // at most 2^32 windows below 2^16
    },
  };
}

function doubleStepper(table: WindowTable, conflictOf: Int32Array): Stepper<Float64Array> {
  const { nodes, kept, windowCount } = table;
  const last = windowCount - 1;
  const HALF = 2 ** 26;
  return {
    ones: () => new Float64Array(kept).fill(1),
    zeros: () => new Float64Array(kept),
    run(from, to) {
      const cursor = new WindowCursor(table);
      const { suffix, oldest } = cursor;
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        for (let i = 0; i < m; i++, u++) {
          const conflict = conflictOf[oldest[i]!]!;
          const s = suffix[i]!;
          let free = nodes[2 * s + 1]!;
          let t = nodes[2 * s]!;
          let sum = 0;
          while (free !== 0) {
            const bit = free & -free;
            free ^= bit;
            if ((bit & conflict) === 0) sum += from[t < kept ? t : last - t]!;
            t++;
          }
          to[u] = sum;
        }
      }
    },
    dot(a, b) {
      // Counts are below 2^52: split each into 26-bit halves, whose products are below 2^52,
      // and add the high, middle and low products separately.
      const cursor = new WindowCursor(table);
      const { reversal } = cursor;
      let hi = 0n;
      let mid = 0n;
      let lo = 0n;
      let accHi = 0;
      let accMid = 0;
      let accLo = 0;
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        cursor.reverse(m);
        for (let i = 0; i < m; i++, u++) {
          const x = a[u]!;
          const y = b[reversal[i]!]!;
          const xh = Math.floor(x / HALF);
          const xl = x - xh * HALF;
          const yh = Math.floor(y / HALF);
          const yl = y - yh * HALF;
          accHi += xh * yh;
          accMid += xh * yl;
          if (accMid >= FLUSH) {
            mid += BigInt(accMid);
            accMid = 0;
          }
          accMid += xl * yh;
          accLo += xl * yl;
          if (accHi >= FLUSH) {
            hi += BigInt(accHi);
            accHi = 0;
          }
          if (accMid >= FLUSH) {
            mid += BigInt(accMid);
            accMid = 0;
          }
          if (accLo >= FLUSH) {
            lo += BigInt(accLo);
            accLo = 0;
          }
        }
      }
      hi += BigInt(accHi);
      mid += BigInt(accMid);
      lo += BigInt(accLo);
      return (hi << 52n) + (mid << 26n) + lo;
    },
    rangeSum(v) {
      let flushed = 0n;
      let acc = 0;
      for (let t = table.rangeStart; t < table.rangeEnd; t++) {
        acc += v[t < kept ? t : last - t]!;
        if (acc >= FLUSH) {
          flushed += BigInt(acc);
          acc = 0;
        }
      }
      return flushed + BigInt(acc);
    },
  };
}

function residueStepper(
  table: WindowTable,
  conflictOf: Int32Array,
  residues: ResidueSystem,
): Stepper<Uint32Array> {
  const { nodes, kept, windowCount } = table;
  const last = windowCount - 1;
  const P = residues.size;
  const primes = residues.primes;
  // A window sums at most n − D + 1 ≤ MAX_ADDENDS children, each below 2^27: below 2^32.
  if (table.n - table.depth + 1 > MAX_ADDENDS) throw new RangeError('too many addends');
  return {
    ones: () => new Uint32Array(kept * P).fill(1),
    zeros: () => new Uint32Array(kept * P),
    run(from, to) {
      const cursor = new WindowCursor(table);
      const { suffix, oldest } = cursor;
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        for (let i = 0; i < m; i++, u++) {
          const conflict = conflictOf[oldest[i]!]!;
          const s = suffix[i]!;
          let free = nodes[2 * s + 1]!;
          let t = nodes[2 * s]!;
          const at = u * P;
          for (let k = 0; k < P; k++) to[at + k] = 0;
          while (free !== 0) {
            const bit = free & -free;
            free ^= bit;
            if ((bit & conflict) === 0) {
              const source = (t < kept ? t : last - t) * P;
              for (let k = 0; k < P; k++) to[at + k]! += from[source + k]!;
            }
            t++;
          }
          for (let k = 0; k < P; k++) to[at + k]! %= primes[k]!;
        }
      }
    },
    dot(a, b) {
      const cursor = new WindowCursor(table);
      const { reversal } = cursor;
      const acc = new Float64Array(P);
      for (let u = 0, m = cursor.next(); m > 0; m = cursor.next()) {
        cursor.reverse(m);
        for (let i = 0; i < m; i++, u++) {
          const other = reversal[i]! * P;
          for (let k = 0; k < P; k++) {
            acc[k]! += mulMod(a[u * P + k]!, b[other + k]!, primes[k]!);
          }
        }
        for (let k = 0; k < P; k++) acc[k]! %= primes[k]!; // CHUNK products below 2^39
      }
      return residues.combine(acc);
    },
    rangeSum(v) {
      const acc = new Float64Array(P);
      for (let t = table.rangeStart; t < table.rangeEnd; t++) {
        const at = (t < kept ? t : last - t) * P;
        for (let k = 0; k < P; k++) acc[k]! += v[at + k]!;
        if ((t & 0xfffff) === 0) for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
      }
      for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
      return residues.combine(acc);
    },
  };
}

/** a · b mod p for a, b < p < 2^27, exact in doubles: b split at 2^13 keeps products < 2^41. */
function mulMod(a: number, b: number, p: number): number {
  const high = Math.floor(b / 8192);
  const low = b - high * 8192;
  return (((a * high) % p) * 8192 + a * low) % p;
}
