// AssemblyScript port of the weak-queens DFS of ../src/kernel/bitmask-dfs.ts: the same phases,
// masks and counts (that file explains them); the TypeScript search stays the reference, and
// the tests compare the two unit by unit. Compiled to dist/kernel/weak-dfs.wasm by the
// package's build. Why a second copy: the DFS is most of the CPU of a sweep's large D, and this
// build takes about 0.5× the time of the JIT's code (docs/kernel.md has the figures).
//
// Where it departs from the TypeScript, each kept because an A/B measurement (all top-level
// units of N(16, 12), same machine, back to back) showed it faster:
// - the last six rows of each phase (up1 … up6 above row 0, down1 … down6 above the last row)
//   are nested loops, each row's function inlined into the one above, not calls: V8's
//   WebAssembly calls save every live value around each call, and most nodes are in the last
//   rows (2.4 s against 3.6 s for the plain recursion; eight or ten rows were no better);
//   up2 … up6 and down2 … down6 differ only in their slots, yet one set of @inline bodies for
//   both phases (the slot and its step as arguments) was slower (2.85–2.90 s against
//   2.59–2.78 s of CPU, docs/kernel.md), so each phase keeps its own;
// - the columns mask carries every bit from n up (~full), so `~(c | l | r)` is already the free
//   columns and no shift is masked: a diagonal bit past column n − 1 only moves further up,
//   where the columns mask hides it, and its expiry XOR drops or keeps it the same way its
//   shifts did (two queens within D rows never share a diagonal, on the board or off it), about
//   7% faster.
//
// A unit is set up in three calls (begin, place for each fixed row, prepare) and searched by
// search(only), once or branch by branch; the module holds one unit at a time. Counts are i64
// inside and f64 at the boundary (exact below 2^53, which no feasible search reaches).

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
  c0 |= ~full;
  uc0 |= ~full;
  return ~(c0 | l0 | r0);
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
  if (mode >= 4) return <f64>popcnt<i32>(~(c0 | l0 | r0) & only);
  if (mode == 0) return <f64>down(next, c0, l0, r0, only);
  if (mode == 1) return <f64>up(top, c0, l0, r0, only);
  return <f64>downThenUp(next, c0, l0, r0, uc0, ul0, ur0, only);
}

// A phase from row `row` on: up, rows `row` down to 0 (see `up` in bitmask-dfs.ts); down,
// a prefix unit's rows `row` to n − 1. Its last six rows run inlined («P»Short); `left`
// counts the phase's rows after this one.
// unroll P = up, down; K = 1 … 1 {
function «P»(row: i32, c: i32, l: i32, r: i32, only: i32): i64 {
  const left = «P === 'up' ? 'row' : 'last - row'»;
  if (left <= 6) return «P»Short(left, c, l, r, only);
  let free = ~(c | l | r) & only;
  const expiring = hist(«P === 'up' ? 'row + 2 * depth' : 'row'»);
  const c1 = c ^ expiring;
  const l1 = l ^ (expiring << depth);
  const r1 = r ^ (expiring >>> depth);
  const child = row «P === 'up' ? '-' : '+'» 1;
  let total: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setHist(row + depth, bit);
    const c2 = c1 | bit;
    const l2 = (l1 | bit) << 1;
    const r2 = (r1 | bit) >>> 1;
    total += left - 1 > 6 ? «P»(child, c2, l2, r2, -1) : «P»6(c2, l2, r2, -1);
  }
  return total;
}
// }

// The last rows of a phase: «P»Short(k, …) runs the phase's rows from its row k on inlined,
// and «P»1 counts its last two rows without a loop (up: rows 1 and 0; down: rows last − 1 and
// last). The upward phase's row K keeps its queen at history row K + depth and drops the one
// at K + 2·depth; the downward phase's rows are counted from the last (row last − K).
// unroll P = up, down; K = 1 … 1 {
function «P»Short(k: i32, c: i32, l: i32, r: i32, only: i32): i64 {
  «[6, 5, 4, 3, 2].map((j) => `if (k == ${j}) return ${P}${j}(c, l, r, only);`).join('\n  ')»
  return «P»1(c, l, r, only);
}

@inline function «P»1(c: i32, l: i32, r: i32, only: i32): i64 {
  const free = ~(c | l | r) & only;
  const expiring = hist(«P === 'up' ? '1 + 2 * depth' : 'last - 1'»);
  return lastTwoRows(free, c ^ expiring, l ^ (expiring << depth), r ^ (expiring >>> depth));
}
// }

// «P»K places the phase's row K, its loop inlined into «P»K+1's.
// unroll P = up, down; K = 2 … 6 {
@inline function «P»«K»(c: i32, l: i32, r: i32, only: i32): i64 {
  let free = ~(c | l | r) & only;
  const row = «P === 'up' ? K : `last - ${K}`»;
  const expiring = hist(«P === 'up' ? 'row + 2 * depth' : 'row'»);
  const c1 = c ^ expiring;
  const l1 = l ^ (expiring << depth);
  const r1 = r ^ (expiring >>> depth);
  let total: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setHist(row + depth, bit);
    total += «P»«K - 1»(c1 | bit, (l1 | bit) << 1, (r1 | bit) >>> 1, -1);
  }
  return total;
}
// }

// Downward phase of a middle unit, carrying the masks for row from − 1 (see bitmask-dfs.ts).
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
  let free = ~(c | l | r) & only;
  const expiring = hist(load<i32>(EXPIRING + ((<usize>row) << 2)));
  const c1 = c ^ expiring;
  const l1 = l ^ (expiring << depth);
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
      ul1 |= bit << reach;
      ur1 |= bit >>> reach;
    }
    if (row < last) {
      total += downThenUp(row + 1, c1 | bit, (l1 | bit) << 1, (r1 | bit) >>> 1, uc1, ul1, ur1, -1);
    } else if (top == 0) {
      total += <i64>popcnt<i32>(~(uc1 | ul1 | ur1));
    } else {
      total += up(top, uc1, ul1, ur1, -1);
    }
  }
  return total;
}

/** The last two rows in five popcounts (see lastTwoRows in bitmask-dfs.ts). */
@inline function lastTwoRows(free: i32, c1: i32, l1: i32, r1: i32): i64 {
  const x = ~(c1 | (l1 << 1) | (r1 >>> 1));
  return (
    <i64>(popcnt<i32>(free) * popcnt<i32>(x)) -
    <i64>popcnt<i32>(x & free) -
    <i64>popcnt<i32>(x & (free << 1)) -
    <i64>popcnt<i32>(x & (free >>> 1))
  );
}
