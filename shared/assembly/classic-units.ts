// AssemblyScript port of the pruned search of ../src/kernel/classic-units.ts: the same phases,
// rules and counts (that file explains them); the TypeScript search stays the reference, and
// the tests compare the two unit by unit. Compiled to dist/kernel/classic-units.wasm by the
// package's build. Why a second copy at all: the same search as WebAssembly takes about 0.8×
// the time of the JIT's code (no tagged values, module state in globals, the row store a plain
// memory store).
//
// Where it departs from the TypeScript, each kept because an A/B measurement in one process
// showed it faster (the figures: docs/benchmarks.md, notes):
// - the last nine rows of every branch are nested loops, one function per row (rows9 … rows2,
//   each inlined into the one above), not calls: V8's WebAssembly calls save every live value
//   around each call (no callee-saved registers), and most nodes are in the last rows. Nine
//   rows, because fewer were slower and ten no better;
// - corner units run the same rows: below row B a corner unit is an edge unit with no side
//   rule, no last-row rule and no leaf to compare;
// - a third look-ahead (the row two below the next one) ends more dead branches.
//
// Counts are i64 inside and f64 at the boundary (exact below 2^53).

let m: i32 = 0;
let b: i32 = 0;
// Row m − B of an edge unit: both side queens are placed by it (the side rule); −1: no rule.
let bound2: i32 = 0;
// What a leaf is compared on: a rotation that puts a queen at (0, B) exists when row `checkRow`
// holds column 0, the last row `half`, or row B `three`. A corner unit makes all three false
// (its row 1 never holds column 0; no row's bit is NO_ROW_BIT).
let checkRow: i32 = 0;
let half: i32 = 0;
let three: i32 = 0;
let side: i32 = 0;
// What rows 2 … B − 1 keep empty: column 1 (corner unit) or the side columns (edge unit).
let banned: i32 = 0;
let last: i32 = 0;
let eight: i64 = 0;
let four: i64 = 0;
let two: i64 = 0;
// Each row's queen as a bit; a leaf's columns; a rotation's columns.
const ROWS: usize = memory.data(32 * 4);
const BOARD: usize = memory.data(32 * 4);
const IMAGE: usize = memory.data(32 * 4);
// A value no row's bit takes (a row holds exactly one bit).
const NO_ROW_BIT: i32 = -1;

function setRow(y: i32, bit: i32): void {
  store<i32>(ROWS + ((<usize>y) << 2), bit);
}

function getRow(y: i32): i32 {
  return load<i32>(ROWS + ((<usize>y) << 2));
}

/**
 * Corner unit `0.B` on an n×n board; `high` has every bit from n up set (~fullMask(n)). Rows
 * 2 … B − 1 keep column 1 empty; from row B on every completion counts once, as an orbit of 8.
 */
export function countCorner(n: i32, second: i32, high: i32): f64 {
  m = n - 1;
  b = second;
  bound2 = -1;
  banned = 2;
  last = 0;
  // Row 1 holds column B ≥ 2, never column 0 (row 0's corner).
  checkRow = 1;
  half = NO_ROW_BIT;
  three = NO_ROW_BIT;
  eight = 0;
  const bit1 = 1 << second;
  setRow(0, 1);
  setRow(1, bit1);
  const c = high | 1 | bit1;
  const l = (2 | bit1) << 1;
  const r = bit1 >>> 1;
  enterRow(2, c, l, r);
  return <f64>eight;
}

/** Edge unit `B.c`; the orbits are read with eights(), fours(), twos(). */
export function countEdge(n: i32, first: i32, second: i32, high: i32): void {
  m = n - 1;
  b = first;
  bound2 = m - b;
  side = (1 << m) | 1;
  banned = side;
  last = 0;
  for (let k = 0; k < b; k++) last |= (1 << k) | (1 << (m - k));
  checkRow = bound2;
  half = 1 << (m - b);
  three = 1 << m;
  eight = 0;
  four = 0;
  two = 0;
  const bit0 = 1 << b;
  const bit1 = 1 << second;
  setRow(0, bit0);
  setRow(1, bit1);
  const c = high | bit0 | bit1;
  const l = ((bit0 << 1) | bit1) << 1;
  const r = ((bit0 >>> 1) | bit1) >>> 1;
  enterRow(2, c, l, r);
}

export function eights(): f64 {
  return <f64>eight;
}

export function fours(): f64 {
  return <f64>four;
}

export function twos(): f64 {
  return <f64>two;
}

/** Row 2 of either kind of unit: above row B (`upperRow`) or not. */
function enterRow(y: i32, c: i32, l: i32, r: i32): void {
  if (y < b) upperRow(y, c, l, r);
  else searchRow(y, c, l, r);
}

/** Rows 2 … B − 1: the `banned` columns stay empty. */
function upperRow(y: i32, c: i32, l: i32, r: i32): void {
  let free = ~(c | l | r | banned);
  const y1 = y + 1;
  const upper = y1 < b;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (upper) upperRow(y1, c1, l1, r1);
    else searchRow(y1, c1, l1, r1);
  }
}

/** Row y ≥ B of either kind of unit, by the phase it is in. */
function searchRow(y: i32, c: i32, l: i32, r: i32): void {
  const left = m - y + 1; // rows y … m
  if (left > 9) {
    if (y == bound2) searchSide(y, c, l, r);
    else searchPlain(y, c, l, r);
  } else if (left == 9) rows9(c, l, r);
  else if (left == 8) enter8(c, l, r);
  else if (left == 7) enter7(c, l, r);
  else if (left == 6) enter6(c, l, r);
  else if (left == 5) enter5(c, l, r);
  else if (left == 4) enter4(c, l, r);
  else if (left == 3) enter3(c, l, r);
  else enter2(c, l, r);
}

/** Row m − B above the last nine: it takes the missing side queen if any. */
function searchSide(y: i32, c: i32, l: i32, r: i32): void {
  let free = sideRule(~(c | l | r), c);
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    searchRow(y + 1, c | bit, (l | bit) << 1, (r | bit) >>> 1);
  }
}

/** A plain row above the last nine, with the next row in the same call unless it is m − B. */
function searchPlain(y: i32, c: i32, l: i32, r: i32): void {
  let free = ~(c | l | r);
  const y1 = y + 1;
  const single = y1 == bound2;
  const k2 = m - y - 2; // from row y + 2 to the last row
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (~(c1 | (l1 << 1) | (r1 >>> 1)) == 0) continue; // row y + 2 blocked already
    if (single) {
      searchSide(y1, c1, l1, r1);
      continue;
    }
    let free1 = ~(c1 | l1 | r1);
    while (free1 != 0) {
      const bit1 = free1 & -free1;
      free1 ^= bit1;
      const c2 = c1 | bit1;
      const l2 = (l1 | bit1) << 1;
      const r2 = (r1 | bit1) >>> 1;
      if (~(c2 | (l2 << 1) | (r2 >>> 1)) == 0) continue;
      if (~(c2 | (l2 << 2) | (r2 >>> 2)) == 0) continue;
      // The last row already without a column it may take.
      if (~(c2 | (l2 << k2) | (r2 >>> k2) | last) == 0) continue;
      setRow(y1, bit1);
      searchRow(y + 2, c2, l2, r2);
    }
  }
}

function sideRule(free: i32, above: i32): i32 {
  const placed = above & side;
  return placed == 0 ? 0 : placed != side ? free & side : free;
}

/** Row y's free columns, the side rule applied where y is row m − B. */
@inline function freeOf(y: i32, c: i32, l: i32, r: i32): i32 {
  const free = ~(c | l | r);
  return y == bound2 ? sideRule(free, c) : free;
}

/**
 * Whether a queen placed on row m − j (leaving c, l, r for the row below) leaves the rows
 * below a chance: the row after next and the one after it are not blocked already, nor the
 * last row (outside `last`). j is a constant wherever this is inlined.
 */
@inline function opens(j: i32, c: i32, l: i32, r: i32): bool {
  if (j > 2 && ~(c | (l << 1) | (r >>> 1)) == 0) return false;
  if (j > 3 && ~(c | (l << 2) | (r >>> 2)) == 0) return false;
  return ~(c | (l << (j - 1)) | (r >>> (j - 1)) | last) != 0;
}

// The last nine rows: rowsK places row m − K + 1 and runs rowsK−1 inside its loop, inlined.
// The enterK functions are where a branch that skipped rows (a two-row call) joins them.
// One function per row on purpose, not one shared function: each level's row and distance
// are constants asc folds, and a call would save every live value (see the top). One recursive
// rowsK(j, …) in their place took 1.25–1.4× the CPU time on Q(16). Each is written once as a
// template that the build repeats per row (unroll.mjs).

// unroll K = 9 … 3 {
«K === 9 ? '' : '@inline '»function rows«K»(c: i32, l: i32, r: i32): void {
  const y = m - «K - 1»;
  let free = freeOf(y, c, l, r);
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (!opens(«K - 1», c1, l1, r1)) continue;
    setRow(y, bit);
    rows«K - 1»(c1, l1, r1);
  }
}
// }

/** Rows m − 1 and m: each candidate of row m − 1 leaves row m one cell or none: the leaves. */
@inline function rows2(c: i32, l: i32, r: i32): void {
  let free = freeOf(m - 1, c, l, r);
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    const final = ~(c | bit | ((l | bit) << 1) | ((r | bit) >>> 1));
    if (final == 0 || (final & last) != 0) continue;
    // Only a board with a rotation that also has a queen at (0, B) needs comparing.
    if (getRow(checkRow) == 1 || final == half || getRow(b) == three) {
      setRow(m - 1, bit);
      setRow(m, final);
      const orbit = leafOrbit();
      if (orbit == 8) eight++;
      else if (orbit == 4) four++;
      else if (orbit == 2) two++;
    } else eight++;
  }
}

// unroll K = 8 … 2 {
function enter«K»(c: i32, l: i32, r: i32): void {
  rows«K»(c, l, r);
}
// }

function column(r: i32): i32 {
  return load<i32>(BOARD + ((<usize>r) << 2));
}

function leafOrbit(): i32 {
  for (let r = 0; r <= m; r++) store<i32>(BOARD + ((<usize>r) << 2), 31 - clz<i32>(getRow(r)));
  if (column(m - b) == 0) {
    const order = compareRotation(1);
    if (order > 0) return 0;
    if (order == 0) return 2;
  }
  if (column(m) == m - b) {
    const order = compareRotation(2);
    if (order > 0) return 0;
    if (order == 0) return 4;
  }
  if (column(b) == m && compareRotation(3) > 0) return 0;
  return 8;
}

function compareRotation(quarter: i32): i32 {
  for (let r = 0; r <= m; r++) {
    const c = column(r);
    if (quarter == 1) store<i32>(IMAGE + ((<usize>c) << 2), m - r);
    else if (quarter == 2) store<i32>(IMAGE + ((<usize>(m - r)) << 2), m - c);
    else store<i32>(IMAGE + ((<usize>(m - c)) << 2), r);
  }
  for (let r = 0; r <= m; r++) {
    const d = column(r) - load<i32>(IMAGE + ((<usize>r) << 2));
    if (d != 0) return d;
  }
  return 0;
}
