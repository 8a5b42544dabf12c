// Depth-first search with column/diagonal bitmasks whose bits expire D rows after the queen
// that set them. No memory beyond the recursion: the algorithm of choice for large D, where
// almost every partial board is distinct and merging states saves nothing.
//
// A unit fixes one run of consecutive rows: a prefix (rows 0..p−1) or a middle run starting at
// `middleStart(n)`. The search grows that run down to the bottom row, then up to the top row,
// so every partial board it visits is a run of consecutive rows (see symmetry.ts for why).
import { InvalidInputError } from './errors.js';
import { assertLegalUnit, fullMask, middleStart, popcount } from './board.js';
import type { ProgressCallback } from './progress.js';
import { dfsWasm } from './bitmask-dfs-wasm.js';

/**
 * Which code runs the search: `wasm` (the WebAssembly build of the same search,
 * bitmask-dfs-wasm.ts), `js` (the TypeScript below, the reference), or `auto`: wasm when the
 * build has it.
 */
type DfsEngine = 'auto' | 'wasm' | 'js';
const DFS_ENGINES: readonly DfsEngine[] = ['auto', 'wasm', 'js'];

/**
 * Number of legal completions of a unit on an (n, D) board: `prefix` fixes the first rows, or
 * `middle` fixes the rows from `middleStart(n)` down (one of the two may be non-empty). Plain
 * doubles are exact here: reaching 2^53 would take years of enumeration, so the count never
 * leaves the safe range (D = 0, counted as a product instead, is refused past 2^53).
 */
export function countByDfs(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
  middle: readonly number[] = [],
  engine: DfsEngine = 'auto',
): number {
  assertLegalUnit(n, depth, prefix, middle);
  if (!DFS_ENGINES.includes(engine)) {
    throw new InvalidInputError('engine', engine, DFS_ENGINES.join(' or '));
  }
  if (prefix.length > 0 && middle.length > 0) {
    throw new InvalidInputError('middle', middle, 'no middle rows together with a prefix');
  }
  const from = middle.length > 0 ? middleStart(n) : 0; // the run's first row
  const run = middle.length > 0 ? middle : prefix;
  const next = from + run.length; // the first row of the downward phase (n: none)
  if (depth === 0) return independentRows(n, n - run.length);
  if (next === n && from === 0) return 1;
  const wasm = engine === 'js' ? undefined : dfsWasm();
  if (engine === 'wasm' && wasm === undefined) {
    throw new Error('weak-dfs.wasm is missing: build @weak-queens/shared (npm run build)');
  }
  if (wasm !== undefined) {
    // One unit at a time in the module: set up here, searched by `progressively` below.
    wasm.begin(n, depth, from);
    run.forEach((column, i) => wasm.place(from + i, column));
    return progressively(wasm.prepare(next), (only) => wasm.search(only), onProgress);
  }

  const full = fullMask(n);
  // hist[j + D] holds the bit of the queen in row j; slots of rows off the board stay 0, and
  // so does the last slot, `none`, which stands for "no queen expires here".
  const none = n + 2 * depth;
  const hist = new Int32Array(none + 1);
  run.forEach((column, i) => (hist[from + i + depth] = 1 << column));
  // The masks a row sees from the fixed queens on one side (above: -1, below: +1).
  const masksFrom = (row: number, side: -1 | 1): [number, number, number] => {
    let cols = 0;
    let left = 0; // bit c+d: a queen d rows away at column c attacks this diagonal
    let right = 0; // bit c−d
    for (let d = 1; d <= depth; d++) {
      const bit = hist[row + side * d + depth] ?? 0;
      cols |= bit;
      left |= (bit << d) & full;
      right |= bit >>> d;
    }
    return [cols, left, right];
  };

  // The three searches below share one shape, tuned for V8: int32 arguments and locals only,
  // no allocation, typed-array state, closures that each stay monomorphic. A node first
  // removes the expiring queen's three bits with XORs (exact: two queens within D rows never
  // share a line, and the new queen's bits cannot coincide with them either). `only` restricts
  // the node's own row (progress runs the first row branch by branch); -1 lets all through.

  // Upward phase: rows `row` down to 0; the queen D rows below stops attacking after `row`.
  // The last two rows (1 and 0) are counted without a loop (`lastTwoRows`): the two deepest
  // levels hold most of the tree, so they cost no calls.
  const up = (row: number, c0: number, l0: number, r0: number, only: number): number => {
    let free = ~(c0 | l0 | r0) & full & only;
    const expiring = hist[row + 2 * depth]!;
    const c1 = c0 ^ expiring;
    const l1 = l0 ^ ((expiring << depth) & full);
    const r1 = r0 ^ (expiring >>> depth);
    let total = 0;
    if (row === 1) return lastTwoRows(free, c1, l1, r1, full);
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      hist[row + depth] = bit;
      total += up(row - 1, c1 | bit, ((l1 | bit) << 1) & full, (r1 | bit) >>> 1, -1);
    }
    return total;
  };

  // Downward phase of a prefix unit (nothing above to fill): rows `row` to n−1, the last two
  // counted as in `up`. The queen D rows above stops attacking after `row`.
  const last = n - 1;
  const down = (row: number, c0: number, l0: number, r0: number, only: number): number => {
    let free = ~(c0 | l0 | r0) & full & only;
    const expiring = hist[row]!;
    const c1 = c0 ^ expiring;
    const l1 = l0 ^ ((expiring << depth) & full);
    const r1 = r0 ^ (expiring >>> depth);
    let total = 0;
    if (row === last - 1) return lastTwoRows(free, c1, l1, r1, full);
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      hist[row + depth] = bit;
      total += down(row + 1, c1 | bit, ((l1 | bit) << 1) & full, (r1 | bit) >>> 1, -1);
    }
    return total;
  };

  // Downward phase of a middle unit: rows `row` to n−1, carrying the masks the placed queens
  // cast on row from−1 (u*: the first row of the upward phase), which then starts from them.
  // Rows above the run are filled later, so their stale hist slots must not expire anything:
  // `expiringSlot` points those at `none`.
  const top = from - 1;
  const expiringSlot = new Int32Array(n);
  for (let row = 0; row < n; row++) expiringSlot[row] = row - depth >= from ? row : none;
  const downThenUp = (
    row: number,
    c0: number,
    l0: number,
    r0: number,
    uc: number,
    ul: number,
    ur: number,
    only: number,
  ): number => {
    let free = ~(c0 | l0 | r0) & full & only;
    const expiring = hist[expiringSlot[row]!]!;
    const c1 = c0 ^ expiring;
    const l1 = l0 ^ ((expiring << depth) & full);
    const r1 = r0 ^ (expiring >>> depth);
    const reach = row - top; // this row's distance to the upward phase's first row
    let total = 0;
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      hist[row + depth] = bit;
      let uc1 = uc;
      let ul1 = ul;
      let ur1 = ur;
      if (reach <= depth) {
        uc1 |= bit;
        ul1 |= (bit << reach) & full;
        ur1 |= bit >>> reach;
      }
      if (row < last) {
        total += downThenUp(
          row + 1,
          c1 | bit,
          ((l1 | bit) << 1) & full,
          (r1 | bit) >>> 1,
          uc1,
          ul1,
          ur1,
          -1,
        );
      } else if (top === 0) {
        total += popcount(~(uc1 | ul1 | ur1) & full);
      } else {
        total += up(top, uc1, ul1, ur1, -1);
      }
    }
    return total;
  };

  // The unit's first searched row and how to search from it with that row restricted.
  let firstFree: number;
  let search: (only: number) => number;
  if (from === 0) {
    const [c, l, r] = masksFrom(next, -1);
    firstFree = ~(c | l | r) & full;
    search =
      next === last ? (only) => popcount(firstFree & only) : (only) => down(next, c, l, r, only);
  } else if (next === n) {
    const [c, l, r] = masksFrom(top, 1);
    firstFree = ~(c | l | r) & full;
    search = top === 0 ? (only) => popcount(firstFree & only) : (only) => up(top, c, l, r, only);
  } else {
    const [c, l, r] = masksFrom(next, -1);
    const [uc, ul, ur] = masksFrom(top, 1);
    firstFree = ~(c | l | r) & full;
    search = (only) => downThenUp(next, c, l, r, uc, ul, ur, only);
  }
  return progressively(firstFree, search, onProgress);
}

/**
 * Runs `search` whole, or with progress branch by branch over the first searched row's free
 * columns (`firstFree`), reporting the share of branches done.
 */
function progressively(
  firstFree: number,
  search: (only: number) => number,
  onProgress: ProgressCallback | undefined,
): number {
  if (!onProgress) return search(-1);
  const branches = popcount(firstFree);
  let remaining = firstFree;
  let done = 0;
  let total = 0;
  while (remaining !== 0) {
    const bit = remaining & -remaining;
    remaining ^= bit;
    total += search(bit);
    onProgress(++done / branches);
  }
  if (branches === 0) onProgress(1);
  return total;
}

/**
 * Completions of the last two rows: the next-to-last row may take any column of `free`, and
 * the last row then sees the masks c1, l1 << 1, r1 >>> 1 plus the new queen's three squares
 * (its column and both neighbours). Summed over the new queen's columns b, that is
 * |free|·|x| − |x ∩ free| − |x ∩ free·2| − |x ∩ free/2| for x the last row's free columns
 * without the new queen: five popcounts instead of a loop over `free`.
 */
function lastTwoRows(free: number, c1: number, l1: number, r1: number, full: number): number {
  const x = ~(c1 | (l1 << 1) | (r1 >>> 1)) & full;
  return (
    popcount(free) * popcount(x) -
    popcount(x & free) -
    popcount(x & (free << 1)) -
    popcount(x & (free >>> 1))
  );
}

/** D = 0: no row sees another, so each free row takes any of the n columns. */
function independentRows(n: number, rows: number): number {
  const total = n ** rows;
  if (!Number.isSafeInteger(total)) {
    throw new InvalidInputError(
      'D',
      0,
      `a depth whose DFS count stays below 2^53 (n^rows = ${total} here; use window-transfer)`,
    );
  }
  return total;
}
