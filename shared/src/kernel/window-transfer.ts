// Transfer matrix over windows: a window is the columns of D consecutive rows, which are all
// within distance D of each other and so form a conflict-free ordinary-queens placement. The
// windows are numbered in lexicographic order (oldest row first) through a trie; each row is
// one sparse matrix-vector step, no sorting per row. A whole (n, D) meets in the middle: it
// runs half the rows and pairs each window with its reversal (see countByWindowTransfer).
// The file is over 600 lines on purpose: the three steppers are the kernel's hottest loops and
// read the table's arrays directly (no accessor in the inner loop), so they stay beside the code
// that lays those arrays out; each stepper is written out for its own number type (see below).
import { attackedBy, countWithoutSearch, fullMask, popcount } from './board.js';
import { InvalidInputError } from './errors.js';
import { collectFully } from './full-collection.js';
import { MAX_ADDENDS, ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';

/**
 * The windows, through the nodes s of trie level D−1 (placements of D−1 rows). Window
 * (o1, …, oD) is child oD of node (o1, …, oD−1), so a node's children are one contiguous slice
 * of windows, in order of s; and window u = (o1, s) is the node s with one older column. Nothing
 * is stored per window: a step visits the nodes s in order, and for each the windows (s, x) it
 * reads (its children, the next slice) and the windows (o1, s) it writes (one per column in
 * `parents[s]`, each the next window of row o1, which starts at `rowStart[o1]`).
 *
 * Mirror symmetry: reflecting every column reverses lexicographic order, so window t and
 * window W−1−t are mirror images. The counts below (placements that *start* with a window)
 * begin all ones and so stay mirror-symmetric; only windows t < ⌈W/2⌉ are kept, those with
 * o1 < ⌈n/2⌉, and a dropped window reads its mirror image.
 */
export interface WindowTable {
  readonly n: number;
  readonly depth: number;
  readonly windowCount: number;
  /** Windows kept: the first ⌈W/2⌉. */
  readonly kept: number;
  /** Per node s: the columns x of its child windows (s, x). */
  readonly childMask: Int32Array;
  /** Per node s: the oldest columns o1 < ⌈n/2⌉ for which (o1, s) is a window. */
  readonly parents: Uint16Array;
  /** Per kept oldest column o1: the index of the first window (o1, …). */
  readonly rowStart: Float64Array;
  /**
   * Per node s: the index of the first child of its reversal, so window rev(o1, s) =
   * (rev s, o1) is revFirst[s] plus the number of columns of parents[s] below o1.
   */
  readonly revFirst: Uint32Array;
  /** Windows [rangeStart, rangeEnd) extend the `focus` sequence given to the builder. */
  readonly rangeStart: number;
  readonly rangeEnd: number;
}

/**
 * The most windows a transfer may count: window indices live in Uint32Arrays (each node's
 * reversal's first child, the pairs of the dot products) and the row cursors, which reach the
 * kept half's end, in Int32Arrays. So W ≤ 2^32 − 2 keeps ⌈W/2⌉ within 2^31 − 1. N(18, 11)
 * (2.94e9 windows) and N(19, 10) (3.0e9) are within it; N(18, 12) (5.9e9) is not.
 */
export const MAX_TRANSFER_WINDOWS = 2 ** 32 - 2;

/** Refuses a table of more windows than MAX_TRANSFER_WINDOWS (see there). */
export function assertTransferWindows(n: number, depth: number, windowCount: number): void {
  if (windowCount <= MAX_TRANSFER_WINDOWS) return;
  throw new InvalidInputError(
    'D',
    depth,
    `a window transfer of at most ${MAX_TRANSFER_WINDOWS} windows (N(${n}, ${depth}) has ${windowCount}): count it by the DFS`,
  );
}

/** How a window-transfer count runs and what it stores per window. */
export interface TransferShape {
  /** Whether the whole (n, D) meets in the middle (empty prefix) or steps every row. */
  readonly meetsInMiddle: boolean;
  /** Steps the longer count vector takes. */
  readonly steps: number;
  /**
   * Meeting in the middle: the steps of the vector it is paired with (`rows − steps`, which
   * is `steps` or `steps − 1` at the middle row, fewer where the meeting row is shifted).
   */
  readonly pairedSteps: number;
  readonly counts: 'uint16' | 'float64' | 'residues';
  /** Bytes of one count vector per kept window. */
  readonly countBytes: number;
}

/** Counts in doubles stay below 2^52, so their 26-bit halves multiply exactly (see dot). */
const DOUBLE_LIMIT = 2 ** 52;

/**
 * How a count runs. `meetShift` moves the row where a whole count meets that many rows past
 * the middle (as far as the board allows): the same N(n, D) from other partial counts, which
 * is how a verified sweep's second count by the transfer differs from its first.
 */
export function transferShape(
  n: number,
  depth: number,
  prefixLength: number,
  meetShift = 0,
): TransferShape {
  const meetsInMiddle = prefixLength === 0;
  const rows = n - Math.max(depth, prefixLength);
  const steps = meetsInMiddle ? Math.min(rows, Math.ceil(rows / 2) + meetShift) : rows;
  const pairedSteps = meetsInMiddle ? rows - steps : 0;
  // Every row after a window's D rows avoids the D columns of the window before it, so it has
  // at most n − D choices and no count can exceed (n − D)^steps.
  const bound = (n - depth) ** steps;
  const counts = bound < 2 ** 16 ? 'uint16' : bound < DOUBLE_LIMIT ? 'float64' : 'residues';
  const countBytes =
    counts === 'uint16' ? 2 : counts === 'float64' ? 8 : 4 * new ResidueSystem(n).size;
  return { meetsInMiddle, steps, pairedSteps, counts, countBytes };
}

/**
 * How far past the middle a second count by the transfer meets (a verified sweep's check,
 * when no other algorithm is affordable): one row, so that every vector it pairs differs from
 * the first count's.
 */
export const CHECK_MEET_SHIFT = 1;

/**
 * Whether a count must keep a copy of the vector it pairs with: its meeting row is shifted
 * past the middle, so that vector is neither the last nor the one before.
 */
export function keepsPairedVector(shape: TransferShape): boolean {
  return shape.meetsInMiddle && shape.pairedSteps < shape.steps - 1;
}

/** Copies `from` into `to` (two count vectors of one shape), cells [lo, hi) only if given. */
export function copyVector<V>(from: V, to: V, lo?: number, hi?: number): void {
  const source = from as unknown as Uint16Array;
  const target = to as unknown as Uint16Array;
  const start = lo ?? 0;
  target.set(source.subarray(start, hi ?? source.length), start);
}

/**
 * Part `index` of `of` of a whole (n, D) that meets in the middle: every step as the whole
 * does, then the final pairing over the index-th of `of` equal runs of trie level D−1 only.
 * The parts add up to N(n, D). Splitting so saves only the pairing's share of the time, but it
 * is the one way to spread a transfer over several machines.
 */
export interface TransferPart {
  readonly index: number;
  readonly of: number;
}

export const MAX_TRANSFER_PARTS = 64;

export function assertTransferPart(part: TransferPart, prefixLength: number): void {
  if (
    !Number.isInteger(part.of) ||
    part.of < 2 ||
    part.of > MAX_TRANSFER_PARTS ||
    !Number.isInteger(part.index) ||
    part.index < 0 ||
    part.index >= part.of
  ) {
    throw new InvalidInputError(
      'part',
      `${part.index}/${part.of}`,
      `index/of with 0 ≤ index < of and 2 ≤ of ≤ ${MAX_TRANSFER_PARTS}`,
    );
  }
  if (prefixLength > 0) {
    throw new InvalidInputError('part', `${part.index}/${part.of}`, 'only for a whole (n, D)');
  }
}

/** The nodes [start, end) of trie level D−1 whose windows a part pairs. */
export function partNodes(nodeCount: number, part: TransferPart): [number, number] {
  return [
    Math.floor((part.index * nodeCount) / part.of),
    Math.floor(((part.index + 1) * nodeCount) / part.of),
  ];
}

/**
 * Bytes per node of trie level D−1 that the table keeps: childMask, parents, revFirst.
 */
export const TABLE_BYTES_PER_NODE = 4 + 2 + 4;

/**
 * Bytes per node of a trie level above D−1 while the next level is generated from it: the
 * first-child index and child columns (`nodes`), the suffix index, the oldest column and the
 * reversal's index. The level above it keeps only its `nodes` (8 bytes) for the suffixes.
 */
export const LEVEL_BYTES_PER_NODE = 8 + 4 + 1 + 4;

/**
 * Builds the window table for 1 ≤ D ≤ n−1, and locates the windows extending `focus` (at most
 * D columns; an empty focus selects every window). Levels below D−1 are temporary: no more than
 * two of them are referenced at once, and none once the table is returned.
 */
function buildWindowTable(n: number, depth: number, focus: readonly number[]): WindowTable {
  const full = fullMask(n);
  const rows = Math.ceil(n / 2); // kept oldest columns
  const below = (c: number): number => (1 << c) - 1;
  // Per node of the current level: the index of its suffix (oldest column dropped) one level
  // up, its oldest column, and the index of its reversal. `nodes` interleaves each node's
  // first-child index (2i) and child columns (2i+1), so that one cache line serves a random
  // lookup; `prevNodes` is the level above. No placement masks: a node's child columns are its
  // suffix's less what its oldest column attacks (see expandNode).
  let count = 1;
  let suffixRank = new Uint32Array(1);
  let oldestCol = new Uint8Array(1);
  let reversed = new Uint32Array(1);
  let nodes = Int32Array.of(0, full, 0, 0);
  let prevNodes = new Int32Array(2);
  let focusLo = 0;
  let focusHi = 1;
  // Level D−1, filled when it is generated (D = 1: the root, the parent of every window).
  let childMask = Int32Array.of(full);
  let parents = Uint16Array.of(below(rows));
  const rowCount = new Float64Array(rows).fill(1);
  // The last level keeps its nodes' suffixes and oldest columns only for one chunk at a time.
  const chunkSuffix = new Uint32Array(CHUNK + 32);
  const chunkOldest = new Uint8Array(CHUNK + 32);
  const kids = nodeChildren();

  for (let level = 0; level + 1 < depth; level++) {
    const total = fillBases(nodes, count);
    [focusLo, focusHi] = followFocus(focus, level, nodes, focusLo, focusHi);
    const last = level + 2 === depth; // generating level D−1, whose children are the windows
    const attack = conflictsAtDepth(n, level + 1);
    const next = last ? nodes : new Int32Array(2 * total + 2);
    const nextReversed = new Uint32Array(total);
    const nextSuffix = last ? chunkSuffix : new Uint32Array(total);
    const nextOldest = last ? chunkOldest : new Uint8Array(total);
    if (last) {
      childMask = new Int32Array(total);
      parents = new Uint16Array(total);
      rowCount.fill(0);
    }
    let chunkStart = 0; // last level: first node whose reversal is still to compute
    for (let i = 0, t = 0; i < count; i++) {
      // prettier-ignore
      const k = expandNode(level, i, nodes, suffixRank, oldestCol, prevNodes, attack, kids);
      for (let j = 0; j < k; j++) {
        const childFree = kids.free[j]!;
        const suffix = kids.suffix[j]!;
        const oldest = kids.oldest[j]!;
        if (last) {
          childMask[t] = childFree;
          chunkSuffix[t - chunkStart] = suffix;
          chunkOldest[t - chunkStart] = oldest;
          // Window (this node, x) has suffix (its suffix, x), a sibling of this node.
          if (oldest < rows) {
            rowCount[oldest]! += popcount(childFree);
            let x = childFree;
            const first = nodes[2 * suffix]!;
            const siblings = nodes[2 * suffix + 1]!;
            while (x !== 0) {
              const xb = x & -x;
              x ^= xb;
              parents[first + popcount(siblings & (xb - 1))]! |= 1 << oldest;
            }
          }
        } else {
          next[2 * t + 1] = childFree;
          nextSuffix[t] = suffix;
          nextOldest[t] = oldest;
        }
        t++;
      }
      if (last && (t - chunkStart >= CHUNK || i + 1 === count)) {
        reverseNodes(
          nodes,
          reversed,
          chunkSuffix,
          chunkOldest,
          t - chunkStart,
          nextReversed,
          chunkStart,
        );
        chunkStart = t;
      }
    }
    if (!last) reverseNodes(nodes, reversed, nextSuffix, nextOldest, total, nextReversed, 0);
    suffixRank = nextSuffix;
    oldestCol = nextOldest;
    reversed = nextReversed;
    prevNodes = nodes;
    nodes = next;
    const dropped = count; // at most the level above `prevNodes`, which goes now
    count = total;
    collectGarbage(dropped * LEVEL_BYTES_PER_NODE); // before the next level is allocated
  }
  // Only level D−1 is left (the caller allocates the count vectors next).
  nodes = prevNodes = new Int32Array(0);
  suffixRank = new Uint32Array(0);
  oldestCol = new Uint8Array(0);
  collectGarbage(count * LEVEL_BYTES_PER_NODE);

  // Level D−1: each node's reversal's first child, in place, and the focus.
  const revFirst = reversed;
  const [baseLo, baseHi, windowCount] = reverseFirstChildren(childMask, revFirst, focusLo, focusHi);
  assertTransferWindows(n, depth, windowCount);
  [focusLo, focusHi] = focusWindows(focus, depth, childMask, baseLo, baseHi, focusLo, focusHi);
  const rowStart = new Float64Array(rows);
  for (let o = 1; o < rows; o++) rowStart[o] = rowStart[o - 1]! + rowCount[o - 1]!;
  return {
    n,
    depth,
    windowCount,
    kept: Math.ceil(windowCount / 2),
    childMask,
    parents,
    rowStart,
    revFirst,
    rangeStart: focusLo,
    rangeEnd: focusHi,
  };
}

/**
 * Below this, dropped levels are left to V8's own collector: a full collection costs
 * milliseconds whatever the heap holds (five of them were most of N(12, 5)'s 45 ms), and levels
 * that grow level by level leave at most about twice this uncollected.
 */
const COLLECT_FROM_BYTES = 16 * 1024 ** 2;

/**
 * A full garbage collection, now, when `droppedBytes` (what just became garbage) is worth one.
 * A dropped trie level is garbage, but a thread frees a buffer only when it collects, by
 * heuristics of its own: a team thread that allocates nothing may keep every level it ever
 * received until the end, and the table's last arrays or the count vectors then sit beside the
 * levels they replace, well above the peak that estimateCost promises.
 */
export function collectGarbage(droppedBytes: number): void {
  if (droppedBytes < COLLECT_FROM_BYTES) return;
  collectFully();
}

/** The children of one node, as expandNode lists them: at most one per column. */
export interface NodeChildren {
  readonly free: Int32Array;
  readonly suffix: Uint32Array;
  readonly oldest: Uint8Array;
}

export function nodeChildren(): NodeChildren {
  return { free: new Int32Array(32), suffix: new Uint32Array(32), oldest: new Uint8Array(32) };
}

/**
 * Lists the children of node i of trie level `level` in `out`, in column order, and returns how
 * many: each child's free columns, its suffix (the oldest column dropped: child c of this
 * node's suffix one level up, in `prevNodes`) and its oldest column. A child's free columns
 * are its suffix's (a node of this level, in `nodes`) less those its oldest column attacks from
 * level + 1 rows away (`attack`): both see the next row from the same distances otherwise. So
 * no level stores its placements' masks. Both builders, single-threaded and team, expand every
 * node through this one function.
 */
export function expandNode(
  level: number,
  i: number,
  nodes: Int32Array,
  suffixRank: Uint32Array,
  oldestCol: Uint8Array,
  prevNodes: Int32Array,
  attack: Int32Array,
  out: NodeChildren,
): number {
  let free = nodes[2 * i + 1]!;
  const s = suffixRank[i]!;
  const first = prevNodes[2 * s]!;
  const siblings = prevNodes[2 * s + 1]!;
  let k = 0;
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    const suffix = level === 0 ? 0 : first + popcount(siblings & (bit - 1));
    const oldest = level === 0 ? 31 - Math.clz32(bit) : oldestCol[i]!;
    out.free[k] = nodes[2 * suffix + 1]! & ~attack[oldest]!;
    out.suffix[k] = suffix;
    out.oldest[k] = oldest;
    k++;
  }
  return k;
}

/** Fills each node's first-child index from the child masks (and the sentinel); the total. */
export function fillBases(nodes: Int32Array, count: number): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    nodes[2 * i] = total;
    total += popcount(nodes[2 * i + 1]!);
  }
  assertLevelIndices(total);
  nodes[2 * count] = total;
  return total;
}

/**
 * A level's first-child indices are Int32Array cells. Within MAX_TRANSFER_WINDOWS no level
 * above the windows comes near 2^31 nodes (N(19, 10): 0.75e9 at level D−1), but a wrong index
 * would be a wrong count, so the build says so rather than wrap.
 */
export function assertLevelIndices(total: number): void {
  if (total > 2 ** 31 - 1) throw new RangeError(`a trie level of ${total} nodes: past 2^31 − 1`);
}

/**
 * out[at + k] = index of the reversal of the node with suffix `suffix[k]` and oldest column
 * `oldest[k]` one level down: child `oldest` of the suffix's reversal. The lookups are random;
 * two tight loops let the processor keep many of them in flight at once.
 */
export function reverseNodes(
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

/**
 * The windows [lo, hi) that extend the focus, from its nodes [lo, hi) of level D−1 and their
 * first-child indices `baseLo` and `baseHi`: its one window when the focus is D columns long,
 * else all their children.
 */
export function focusWindows(
  focus: readonly number[],
  depth: number,
  childMask: Int32Array,
  baseLo: number,
  baseHi: number,
  lo: number,
  hi: number,
): [number, number] {
  if (depth - 1 >= focus.length) return [baseLo, baseHi];
  const c = focus[depth - 1] ?? 0;
  const m = hi > lo ? childMask[lo]! : 0;
  const at = baseLo + popcount(m & ((1 << c) - 1));
  return m & (1 << c) ? [at, at + 1] : [0, 0];
}

/**
 * Turns `reversed` (per node of level D−1, its reversal's index) into each node's reversal's
 * first child, in place; returns the first-child indices of nodes `lo` and `hi` and the number
 * of windows. The reversal is an involution, so one walk in order with the running first-child
 * index does it: the smaller node of a pair parks its own first child in its slot (its partner
 * still points back at it), the larger swaps the two. No per-node first-child array.
 */
function reverseFirstChildren(
  childMask: Int32Array,
  reversed: Uint32Array,
  lo: number,
  hi: number,
): [number, number, number] {
  const count = childMask.length;
  let at = 0;
  let atLo = 0;
  let atHi = 0;
  for (let s = 0; s < count; s++) {
    if (s === lo) atLo = at;
    if (s === hi) atHi = at;
    const r = reversed[s]!;
    if (r < s) {
      reversed[s] = reversed[r]!;
      reversed[r] = at;
    } else {
      reversed[s] = at;
    }
    at += popcount(childMask[s]!);
  }
  if (lo === count) atLo = at;
  if (hi === count) atHi = at;
  return [atLo, atHi, at];
}

/** Follows the focus one level down: a single path while it lasts, then the whole subtree. */
export function followFocus(
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

export const CHUNK = 4096;

/**
 * Number of legal completions of `prefix` on an (n, D) board.
 *
 * G_m(u), the number of m-row placements whose first D rows are window u = (o1, s), is the sum
 * of G_{m−1} over the windows (s, x) that o1 does not attack from distance D: the children of
 * node s. G_D is all ones. With a prefix, the answer is the sum of G over the windows that
 * extend it. Without one, the whole count meets in the middle: a board splits at rows k−D …
 * k−1 (window w) into its first k rows and its last n−k+D, every pair of rows within distance
 * D lies in one of the two, and reversing the row order maps boards to boards, so
 * N(n, D) = Σ_w G_{n−k+D}(w) · G_k(rev w). With k ≈ (n+D)/2 that is half the steps.
 */
export function countByWindowTransfer(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
  part?: TransferPart,
  /** Meet this many rows past the middle (a second, independent-path count; see transferShape). */
  meetShift = 0,
): bigint {
  if (part) assertTransferPart(part, prefix.length);
  const trivial = countWithoutSearch(n, depth, prefix);
  // A count with no search is whole: its first part holds it.
  if (trivial !== undefined) return part && part.index > 0 ? 0n : trivial;
  // A prefix longer than a window only matters through its last D columns.
  const focus = prefix.length > depth ? prefix.slice(prefix.length - depth) : prefix;
  const shape = transferShape(n, depth, prefix.length, meetShift);
  const table = buildWindowTable(n, depth, focus);
  const conflictOf = conflictsAtDepth(n, depth);
  const whole = wholeRange(table);
  const paired = part ? nodeRangeOf(table, ...partNodes(table.childMask.length, part)) : whole;
  // The longer vector's steps plus one unit for the table, one for the final sum.
  const units = shape.steps + 2;
  onProgress?.(1 / units);
  const run = <V>(step: Stepper<V>): bigint => {
    let current = step.ones();
    let next = step.zeros();
    // A shifted meeting row pairs the last vector with one from further back: kept aside.
    const kept = keepsPairedVector(shape) ? step.zeros() : undefined;
    if (kept && shape.pairedSteps === 0) copyVector(current, kept);
    for (let done = 0; done < shape.steps; done++) {
      step.run(current, next, whole);
      [current, next] = [next, current];
      if (kept && done + 1 === shape.pairedSteps) copyVector(current, kept);
      onProgress?.((done + 2) / units);
    }
    if (!shape.meetsInMiddle) return step.rangeSum(current);
    // An even number of rows pairs G_k with itself; an odd one G_k (next) with G_k+1.
    const a = kept ?? (shape.pairedSteps === shape.steps ? current : next);
    const half = step.dot(a, current, paired);
    // Only a one-column window (D = 1, n odd) can be its own mirror image: counted once (by
    // the first part).
    if (table.windowCount % 2 === 0 || (part && part.index > 0)) return 2n * half;
    const middle = table.kept - 1;
    return 2n * half - step.valueAt(a, middle) * step.valueAt(current, middle);
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

/**
 * A contiguous run [start, end) of trie level D−1 nodes and where its windows begin: a step or
 * a dot product over it touches only the windows (o1, s) with s in the run, so runs that tile
 * the level split the work (see window-transfer-parallel.ts) and their results add up.
 */
export interface NodeRange {
  readonly start: number;
  readonly end: number;
  /** The index of node `start`'s first child window. */
  readonly first: number;
  /** Per kept oldest column o1: the index of the first window (o1, s) with s ≥ start. */
  readonly next: ArrayLike<number>;
}

/** Every node of the table. */
function wholeRange(table: WindowTable): NodeRange {
  return { start: 0, end: table.childMask.length, first: 0, next: table.rowStart };
}

/** The nodes [start, end) of the table, located by counting the windows before them. */
export function nodeRangeOf(table: WindowTable, start: number, end: number): NodeRange {
  const { childMask, parents, rowStart } = table;
  const next = Float64Array.from(rowStart);
  let first = 0;
  for (let s = 0; s < start; s++) {
    first += popcount(childMask[s]!);
    for (let rows = parents[s]!; rows !== 0; rows &= rows - 1)
      next[31 - Math.clz32(rows & -rows)]!++;
  }
  return { start, end, first, next };
}

/** The step, dot product and sums for one arithmetic, over typed-array count vectors. */
export interface Stepper<V> {
  ones(): V;
  zeros(): V;
  /** to = one step of from, for the windows of the nodes in `range`. */
  run(from: V, to: V, range: NodeRange): void;
  /**
   * Σ over the kept windows u of the nodes in `range` of a(u) · b(rev u); with residues, that
   * sum modulo the product of the primes.
   */
  dot(a: V, b: V, range: NodeRange): bigint;
  /**
   * Σ over windows [lo, hi) (every window, not just the kept ones; by default the focus
   * range); with residues, modulo the product of the primes.
   */
  rangeSum(v: V, lo?: number, hi?: number): bigint;
  valueAt(v: V, window: number): bigint;
}

/** Per column c: the columns a queen in c attacks D rows later (the window's oldest row). */
export function conflictsAtDepth(n: number, depth: number): Int32Array {
  const conflictOf = new Int32Array(n);
  for (let c = 0; c < n; c++) conflictOf[c] = attackedBy(n, c, depth);
  return conflictOf;
}

// The step loops below are one pull (the residues' their own, per residue): nodes s in order,
// so the children (s, x) are read as one stream and each row o1 of windows (o1, s) is written
// as another; plain typed-array indexing (the `!`s are in bounds by construction). A child in
// the dropped half reads its mirror image W−1−t. The dot products visit the windows in the
// same order; the reversal's count is the only random read. Exact sums stay in doubles below
// 2^53 and become BigInt only every 2^52 (FLUSH).

const FLUSH = 2 ** 52;

/** Pairs per chunk of the dot products' index pass. */
const PAIR_CHUNK = 8192;

/**
 * The dot products' index pass, shared by every arithmetic: the kept windows u of the nodes in
 * `range`, in order, each with the index its reversal's count is kept at (the mirror image's
 * when the reversal is in the dropped half), a chunk at a time. `visit` then reads the chunk's
 * partners' counts in one tight loop: those reads are random and dominate, and a loop with no
 * bit twiddling between them keeps many in flight at once (as in reverseNodes). With `same` (a
 * vector dotted with itself) each pair {u, partner} is listed once, by its smaller index.
 */
function forEachPairChunk(
  table: WindowTable,
  range: NodeRange,
  same: boolean,
  visit: (windows: Uint32Array, partners: Uint32Array, length: number) => void,
): void {
  const { parents, revFirst, kept, windowCount } = table;
  const last = windowCount - 1;
  const next = Int32Array.from(range.next);
  const windows = new Uint32Array(PAIR_CHUNK + 32);
  const partners = new Uint32Array(PAIR_CHUNK + 32);
  let length = 0;
  for (let s = range.start; s < range.end; s++) {
    // Window (o1, s) reverses to (rev s, o1): the reversals of s's windows are consecutive
    // children of rev s, in the order of o1.
    let r = revFirst[s]!;
    let rowsLeft = parents[s]!;
    while (rowsLeft !== 0) {
      const rowBit = rowsLeft & -rowsLeft;
      rowsLeft ^= rowBit;
      const u = next[31 - Math.clz32(rowBit)]!++;
      const partner = r < kept ? r : last - r;
      r++;
      if (u >= kept) continue; // the second half of the middle row (n odd)
      if (same && partner < u) continue;
      windows[length] = u;
      partners[length] = partner;
      length++;
    }
    if (length >= PAIR_CHUNK) {
      visit(windows, partners, length);
      length = 0;
    }
  }
  if (length > 0) visit(windows, partners, length);
}

/**
 * One step of the count vector over the windows of `range`: to[(o1, s)] = the sum of from over
 * the children of s that o1 does not attack. Shared by the 16-bit and the double counts: one
 * function seeing both array kinds measured as fast as a copy per kind (CPU time of N(16, 9)
 * and N(17, 7) after a worker had run both kinds; bench/results/HISTORY.md).
 */
function stepWindows<V extends Uint16Array | Float64Array>(
  table: WindowTable,
  conflictOf: Int32Array,
  from: V,
  to: V,
  range: NodeRange,
): void {
  const { childMask, parents, kept, windowCount } = table;
  const last = windowCount - 1;
  const next = Int32Array.from(range.next); // next window of each row
  for (let s = range.start, first = range.first; s < range.end; s++) {
    const children = childMask[s]!;
    const end = first + popcount(children);
    let rowsLeft = parents[s]!;
    if (rowsLeft !== 0) {
      // Window (o1, s) sums the children of s but the at most three that o1 attacks: their
      // total once per node, less those, beats testing every child for every window.
      let total = 0;
      if (end <= kept) for (let t = first; t < end; t++) total += from[t]!;
      else for (let t = first; t < end; t++) total += from[t < kept ? t : last - t]!;
      while (rowsLeft !== 0) {
        const rowBit = rowsLeft & -rowsLeft;
        rowsLeft ^= rowBit;
        const o1 = 31 - Math.clz32(rowBit);
        const u = next[o1]!++;
        if (u >= kept) continue; // the second half of the middle row (n odd)
        let attacked = children & conflictOf[o1]!;
        let sum = total;
        while (attacked !== 0) {
          const bit = attacked & -attacked;
          attacked ^= bit;
          const t = first + popcount(children & (bit - 1));
          sum -= from[t < kept ? t : last - t]!;
        }
        to[u] = sum;
      }
    }
    first = end;
  }
}

export function smallStepper(table: WindowTable, conflictOf: Int32Array): Stepper<Uint16Array> {
  const { kept, windowCount } = table;
  const last = windowCount - 1;
  return {
    ones: () => new Uint16Array(kept).fill(1),
    zeros: () => new Uint16Array(kept),
    run: (from, to, range) => stepWindows(table, conflictOf, from, to, range),
    dot(a, b, range) {
      // Products stay below 2^32, and a chunk adds fewer than 2^14 of them: a double below
      // 2^52 takes a chunk exactly. When a is b, the terms of u and of its partner are equal,
      // so each pair is listed once (`paired` holds them, counted twice).
      const same = a === b;
      let flushed = 0n;
      let acc = 0;
      let paired = 0;
      forEachPairChunk(table, range, same, (windows, partners, length) => {
        // Sums local to the chunk: a captured variable written per pair is boxed per write.
        let chunkAcc = 0;
        let chunkPaired = 0;
        for (let i = 0; i < length; i++) {
          const u = windows[i]!;
          const partner = partners[i]!;
          const term = a[u]! * b[partner]!;
          if (same && partner !== u) chunkPaired += term;
          else chunkAcc += term;
        }
        acc += chunkAcc;
        paired += chunkPaired;
        if (acc >= FLUSH || paired >= FLUSH) {
          flushed += BigInt(acc) + 2n * BigInt(paired);
          acc = 0;
          paired = 0;
        }
      });
      return flushed + BigInt(acc) + 2n * BigInt(paired);
    },
    rangeSum(v, lo = table.rangeStart, hi = table.rangeEnd) {
      let total = 0;
      for (let t = lo; t < hi; t++) total += v[t < kept ? t : last - t]!;
      return BigInt(total); // fewer than 2^32 windows, each below 2^16
    },
    valueAt: (v, t) => BigInt(v[t]!),
  };
}

export function doubleStepper(table: WindowTable, conflictOf: Int32Array): Stepper<Float64Array> {
  const { kept, windowCount } = table;
  const last = windowCount - 1;
  const HALF = 2 ** 26;
  return {
    ones: () => new Float64Array(kept).fill(1),
    zeros: () => new Float64Array(kept),
    run: (from, to, range) => stepWindows(table, conflictOf, from, to, range),
    dot(a, b, range) {
      // Counts are below 2^52: split each into 26-bit halves, whose products are below 2^52,
      // and add the high, middle and low products separately.
      let hi = 0n;
      let mid = 0n;
      let lo = 0n;
      forEachPairChunk(table, range, false, (windows, partners, length) => {
        // Sums local to the chunk: a captured variable written per pair is boxed per write.
        let chunkHi = 0;
        let chunkMid = 0;
        let chunkLo = 0;
        for (let i = 0; i < length; i++) {
          const x = a[windows[i]!]!;
          const y = b[partners[i]!]!;
          const xh = Math.floor(x / HALF);
          const xl = x - xh * HALF;
          const yh = Math.floor(y / HALF);
          const yl = y - yh * HALF;
          chunkHi += xh * yh;
          chunkMid += xh * yl;
          chunkMid += xl * yh;
          chunkLo += xl * yl;
          // Each term is below 2^52 and each sum was below 2^52: still exact.
          if (chunkHi >= FLUSH) [hi, chunkHi] = [hi + BigInt(chunkHi), 0];
          if (chunkMid >= FLUSH) [mid, chunkMid] = [mid + BigInt(chunkMid), 0];
          if (chunkLo >= FLUSH) [lo, chunkLo] = [lo + BigInt(chunkLo), 0];
        }
        hi += BigInt(chunkHi);
        mid += BigInt(chunkMid);
        lo += BigInt(chunkLo);
      });
      return (hi << 52n) + (mid << 26n) + lo;
    },
    rangeSum(v, lo = table.rangeStart, hi = table.rangeEnd) {
      let flushed = 0n;
      let acc = 0;
      for (let t = lo; t < hi; t++) {
        acc += v[t < kept ? t : last - t]!;
        if (acc >= FLUSH) [flushed, acc] = [flushed + BigInt(acc), 0];
      }
      return flushed + BigInt(acc);
    },
    valueAt: (v, t) => BigInt(v[t]!),
  };
}

export function residueStepper(
  table: WindowTable,
  conflictOf: Int32Array,
  residues: ResidueSystem,
): Stepper<Uint32Array> {
  const { childMask, parents, kept, windowCount } = table;
  const last = windowCount - 1;
  const P = residues.size;
  const primes = residues.primes;
  // A window sums at most n − D + 1 ≤ MAX_ADDENDS children, each below 2^27: below 2^32.
  if (table.n - table.depth + 1 > MAX_ADDENDS) throw new RangeError('too many addends');
  return {
    ones: () => new Uint32Array(kept * P).fill(1),
    zeros: () => new Uint32Array(kept * P),
    run(from, to, range) {
      const next = Int32Array.from(range.next);
      for (let s = range.start, first = range.first; s < range.end; s++) {
        const children = childMask[s]!;
        let rowsLeft = parents[s]!;
        while (rowsLeft !== 0) {
          const rowBit = rowsLeft & -rowsLeft;
          rowsLeft ^= rowBit;
          const o1 = 31 - Math.clz32(rowBit);
          const u = next[o1]!++;
          if (u >= kept) continue;
          const conflict = conflictOf[o1]!;
          const at = u * P;
          for (let k = 0; k < P; k++) to[at + k] = 0;
          let free = children;
          let t = first;
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
        first += popcount(children);
      }
    },
    dot(a, b, range) {
      const acc = new Float64Array(P);
      forEachPairChunk(table, range, false, (windows, partners, length) => {
        for (let i = 0; i < length; i++) {
          const at = windows[i]! * P;
          const other = partners[i]! * P;
          for (let k = 0; k < P; k++) acc[k]! += mulMod(a[at + k]!, b[other + k]!, primes[k]!);
          // Products are below 2^27: reduce every 16 of them, far below 2^53.
          if ((i & 15) === 15) for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
        }
        for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
      });
      return residues.combine(acc);
    },
    rangeSum(v, lo = table.rangeStart, hi = table.rangeEnd) {
      const acc = new Float64Array(P);
      for (let t = lo; t < hi; t++) {
        const at = (t < kept ? t : last - t) * P;
        for (let k = 0; k < P; k++) acc[k]! += v[at + k]!;
        if ((t & 0xfffff) === 0) for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
      }
      for (let k = 0; k < P; k++) acc[k]! %= primes[k]!;
      return residues.combine(acc);
    },
    valueAt: (v, t) => residues.combine(v.subarray(t * P, (t + 1) * P)),
  };
}

/** a · b mod p for a, b < p < 2^27, exact in doubles: b split at 2^13 keeps products < 2^41. */
function mulMod(a: number, b: number, p: number): number {
  const high = Math.floor(b / 8192);
  const low = b - high * 8192;
  return (((a * high) % p) * 8192 + a * low) % p;
}
