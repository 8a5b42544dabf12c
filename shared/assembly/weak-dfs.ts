// AssemblyScript port of the weak-queens DFS of ../src/kernel/bitmask-dfs.ts: the same phases,
// masks and counts (that file explains them); the TypeScript search stays the reference, and
// the tests compare the two unit by unit. Compiled to dist/kernel/weak-dfs.wasm by the
// package's build.
//
// A unit is set up in three calls (begin, place for each fixed row, prepare) and searched by
// search(only), once or branch by branch. Counts are i64 inside and f64 at the boundary (exact
// below 2^53, which no feasible search reaches).

let n: i32 = 0;
let depth: i32 = 0;
let full: i32 = 0;
let last: i32 = 0;
let from: i32 = 0;
let next: i32 = 0;
let top: i32 = 0;
let none: i32 = 0;
// The masks the fixed run casts on the first searched row (c, l, r) and, for a middle unit,
// on row from − 1 (uc, ul, ur).
let c0: i32 = 0;
let l0: i32 = 0;
let r0: i32 = 0;
let uc0: i32 = 0;
let ul0: i32 = 0;
let ur0: i32 = 0;
// 0: prefix unit, 1: run reaching the bottom row (upward only), 2: middle unit (down, then up);
// +4: the first searched row is the last one to fill (counted by one popcount).
let mode: i32 = 0;
// hist[j + D] holds the bit of the queen in row j (see bitmask-dfs.ts), 32-bit slots;
// expiringSlot[row] the slot a row's expiring queen is read from.
const HIST: usize = memory.data(128 * 4);
const EXPIRING: usize = memory.data(32 * 4);

@inline function hist(slot: i32): i32 {
  return load<i32>(HIST + ((<usize>slot) << 2));
}

@inline function setHist(slot: i32, bit: i32): void {
  store<i32>(HIST + ((<usize>slot) << 2), bit);
}

/** Starts a unit of an (n, D) board whose fixed run starts at row `first` (0 or the middle). */
export function begin(size: i32, d: i32, first: i32): void {
  n = size;
  depth = d;
  full = size == 32 ? -1 : (1 << size) - 1;
  last = size - 1;
  from = first;
  top = first - 1;
  none = size + 2 * d;
  memory.fill(HIST, 0, 128 * 4);
}

/** Fixes row `row`'s queen at `column`. */
export function place(row: i32, column: i32): void {
  setHist(row + depth, 1 << column);
}

/** After the fixed rows (the run ends before row `end`): the first searched row's free columns. */
export function prepare(end: i32): i32 {
  next = end;
  for (let row = 0; row < n; row++) {
    store<i32>(EXPIRING + ((<usize>row) << 2), row - depth >= from ? row : none);
  }
  if (from == 0) {
    masksFrom(next, -1);
    c0 = mc;
    l0 = ml;
    r0 = mr;
    mode = next == last ? 4 : 0;
  } else if (next == n) {
    masksFrom(top, 1);
    c0 = mc;
    l0 = ml;
    r0 = mr;
    mode = top == 0 ? 5 : 1;
  } else {
    masksFrom(top, 1);
    uc0 = mc;
    ul0 = ml;
    ur0 = mr;
    masksFrom(next, -1);
    c0 = mc;
    l0 = ml;
    r0 = mr;
    mode = 2;
  }
  return ~(c0 | l0 | r0) & full;
}

let mc: i32 = 0;
let ml: i32 = 0;
let mr: i32 = 0;

function masksFrom(row: i32, side: i32): void {
  mc = 0;
  ml = 0;
  mr = 0;
  for (let d = 1; d <= depth; d++) {
    const j = row + side * d;
    const bit = j >= 0 && j < n ? hist(j + depth) : 0;
    mc |= bit;
    ml |= (bit << d) & full;
    mr |= bit >>> d;
  }
}

/** Completions of the prepared unit with the first searched row restricted to `only`. */
export function search(only: i32): f64 {
  if (mode >= 4) return <f64>popcnt<i32>(~(c0 | l0 | r0) & full & only);
  if (mode == 0) return <f64>down(next, c0, l0, r0, only);
  if (mode == 1) return <f64>up(top, c0, l0, r0, only);
  return <f64>downThenUp(next, c0, l0, r0, uc0, ul0, ur0, only);
}

function up(row: i32, c: i32, l: i32, r: i32, only: i32): i64 {
  let free = ~(c | l | r) & full & only;
  const expiring = hist(row + 2 * depth);
  const c1 = c ^ expiring;
  const l1 = l ^ ((expiring << depth) & full);
  const r1 = r ^ (expiring >>> depth);
  if (row == 1) return lastTwoRows(free, c1, l1, r1);
  let total: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setHist(row + depth, bit);
    total += up(row - 1, c1 | bit, ((l1 | bit) << 1) & full, (r1 | bit) >>> 1, -1);
  }
  return total;
}

function down(row: i32, c: i32, l: i32, r: i32, only: i32): i64 {
  let free = ~(c | l | r) & full & only;
  const expiring = hist(row);
  const c1 = c ^ expiring;
  const l1 = l ^ ((expiring << depth) & full);
  const r1 = r ^ (expiring >>> depth);
  if (row == last - 1) return lastTwoRows(free, c1, l1, r1);
  let total: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setHist(row + depth, bit);
    total += down(row + 1, c1 | bit, ((l1 | bit) << 1) & full, (r1 | bit) >>> 1, -1);
  }
  return total;
}

function downThenUp(
  row: i32,
  c: i32,
  l: i32,
  r: i32,
  uc: i32,
  ul: i32,
  ur: i32,
  only: i32,
): i64 {
  let free = ~(c | l | r) & full & only;
  const expiring = hist(load<i32>(EXPIRING + ((<usize>row) << 2)));
  const c1 = c ^ expiring;
  const l1 = l ^ ((expiring << depth) & full);
  const r1 = r ^ (expiring >>> depth);
  const reach = row - top;
  let total: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setHist(row + depth, bit);
    let uc1 = uc;
    let ul1 = ul;
    let ur1 = ur;
    if (reach <= depth) {
      uc1 |= bit;
      ul1 |= (bit << reach) & full;
      ur1 |= bit >>> reach;
    }
    if (row < last) {
      total += downThenUp(row + 1, c1 | bit, ((l1 | bit) << 1) & full, (r1 | bit) >>> 1, uc1, ul1, ur1, -1);
    } else if (top == 0) {
      total += <i64>popcnt<i32>(~(uc1 | ul1 | ur1) & full);
    } else {
      total += up(top, uc1, ul1, ur1, -1);
    }
  }
  return total;
}

/** The last two rows in five popcounts (see lastTwoRows in bitmask-dfs.ts). */
@inline function lastTwoRows(free: i32, c1: i32, l1: i32, r1: i32): i64 {
  const x = ~(c1 | (l1 << 1) | (r1 >>> 1)) & full;
  return (
    <i64>(popcnt<i32>(free) * popcnt<i32>(x)) -
    <i64>popcnt<i32>(x & free) -
    <i64>popcnt<i32>(x & (free << 1)) -
    <i64>popcnt<i32>(x & (free >>> 1))
  );
}
