// AssemblyScript port of the pruned search of ../src/kernel/classic-units.ts, the same phases and
// rules function by function (that file explains them); the TypeScript search stays the
// reference, and the tests compare the two unit by unit. Compiled to
// dist/kernel/classic-units.wasm by the package's build. Why a second copy at all: the same
// search as WebAssembly takes about 0.8× the time of the JIT's code (no tagged values, module
// state in globals, the row store a plain memory store).
//
// The corner and edge functions repeat their loops on purpose, as in the TypeScript search.
// Counts are i64 inside and f64 at the boundary (exact below 2^53).
//
// Two refinements only here, each measured on this build alone (A/B in one process, the two
// modules alternating, Q(15) and Q(16), 2026-12-01): a third look-ahead in the two-row loops
// (the row two below the next one) ends more dead branches, 2–3%; and an edge unit's last
// five rows are nested loops in one function (edgeLast5, edgeLast4) rather than calls, 7%:
// V8's WebAssembly calls save every live value around each call (no callee-saved
// registers), and most nodes are in the last rows. The same nesting for corner units (a
// tenth of the time) measured nothing and was left out.

let m: i32 = 0;
let b: i32 = 0;
let bound2: i32 = 0;
let side: i32 = 0;
let last: i32 = 0;
let half: i32 = 0;
let three: i32 = 0;
let eight: i64 = 0;
let four: i64 = 0;
let two: i64 = 0;
// Each row's queen as a bit; a leaf's columns; a rotation's columns.
const ROWS: usize = memory.data(32 * 4);
const BOARD: usize = memory.data(32 * 4);
const IMAGE: usize = memory.data(32 * 4);

function setRow(y: i32, bit: i32): void {
  store<i32>(ROWS + ((<usize>y) << 2), bit);
}

function getRow(y: i32): i32 {
  return load<i32>(ROWS + ((<usize>y) << 2));
}

/** Corner unit `0.B` on an n×n board; `high` has every bit from n up set (~fullMask(n)). */
export function countCorner(n: i32, second: i32, high: i32): f64 {
  m = n - 1;
  b = second;
  const bit1 = 1 << second;
  const c = high | 1 | bit1;
  const l = (2 | bit1) << 1;
  const r = bit1 >>> 1;
  return <f64>(2 < b ? cornerUpper(2, c, l, r) : cornerPlain(2, c, l, r));
}

function cornerUpper(y: i32, c: i32, l: i32, r: i32): i64 {
  let free = ~(c | l | r | 2);
  let count: i64 = 0;
  const y1 = y + 1;
  const upper = y1 < b;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    count += upper ? cornerUpper(y1, c1, l1, r1) : cornerPlain(y1, c1, l1, r1);
  }
  return count;
}

function cornerPlain(y: i32, c: i32, l: i32, r: i32): i64 {
  let free = ~(c | l | r);
  if (y == m - 1) return tailCount(free, c, l, r);
  let count: i64 = 0;
  const last3 = y + 2 == m;
  const k2 = m - y - 2;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    let free1 = ~(c1 | l1 | r1);
    if (last3) {
      count += tailCount(free1, c1, l1, r1);
      continue;
    }
    if (~(c1 | (l1 << 1) | (r1 >>> 1)) == 0) continue;
    while (free1 != 0) {
      const bit1 = free1 & -free1;
      free1 ^= bit1;
      const c2 = c1 | bit1;
      const l2 = (l1 | bit1) << 1;
      const r2 = (r1 | bit1) >>> 1;
      if (~(c2 | (l2 << 1) | (r2 >>> 1)) == 0) continue;
      if (k2 > 2 && ~(c2 | (l2 << 2) | (r2 >>> 2)) == 0) continue;
      if (~(c2 | (l2 << k2) | (r2 >>> k2)) == 0) continue;
      count += cornerPlain(y + 2, c2, l2, r2);
    }
  }
  return count;
}

function tailCount(free: i32, c: i32, l: i32, r: i32): i64 {
  let count: i64 = 0;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    if (~(c | bit | ((l | bit) << 1) | ((r | bit) >>> 1)) != 0) count++;
  }
  return count;
}

/** Edge unit `B.c`; the orbits are read with eights(), fours(), twos(). */
export function countEdge(n: i32, first: i32, second: i32, high: i32): void {
  m = n - 1;
  b = first;
  bound2 = m - b;
  side = (1 << m) | 1;
  last = 0;
  for (let k = 0; k < b; k++) last |= (1 << k) | (1 << (m - k));
  half = 1 << (m - b);
  three = 1 << m;
  eight = 0;
  four = 0;
  two = 0;
  const bit0 = 1 << b;
  const bit1 = 1 << second;
  setRow(0, bit0);
  setRow(1, bit1);
  edgeRow(2, high | bit0 | bit1, ((bit0 << 1) | bit1) << 1, ((bit0 >>> 1) | bit1) >>> 1);
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

function edgeRow(y: i32, c: i32, l: i32, r: i32): void {
  if (y < b) edgeUpper(y, c, l, r);
  // Rows above B never reach the last five (B < n / 2).
  else if (y == m - 3) edgeLast4(c, l, r);
  else if (y == m - 4) edgeLast5(c, l, r);
  else if (y == m - 1) edgeTail(c, l, r);
  else if (y == bound2) edgeSide(y, c, l, r);
  else edgePlain(y, c, l, r);
}

function edgeUpper(y: i32, c: i32, l: i32, r: i32): void {
  let free = ~(c | l | r | side);
  const y1 = y + 1;
  const upper = y1 < b;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (upper) edgeUpper(y1, c1, l1, r1);
    else edgeRow(y1, c1, l1, r1);
  }
}

function edgeSide(y: i32, c: i32, l: i32, r: i32): void {
  let free = sideRule(~(c | l | r), c);
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    edgeRow(y + 1, c | bit, (l | bit) << 1, (r | bit) >>> 1);
  }
}

function edgePlain(y: i32, c: i32, l: i32, r: i32): void {
  let free = ~(c | l | r);
  const y1 = y + 1;
  const single = y1 == bound2;
  const last3 = y1 == m - 1;
  const k2 = m - y - 2;
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    setRow(y, bit);
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (last3) edgeTail(c1, l1, r1);
    else if (~(c1 | (l1 << 1) | (r1 >>> 1)) == 0) continue;
    else if (single) edgeSide(y1, c1, l1, r1);
    else {
      let free1 = ~(c1 | l1 | r1);
      while (free1 != 0) {
        const bit1 = free1 & -free1;
        free1 ^= bit1;
        const c2 = c1 | bit1;
        const l2 = (l1 | bit1) << 1;
        const r2 = (r1 | bit1) >>> 1;
        if (~(c2 | (l2 << 1) | (r2 >>> 1)) == 0) continue;
        if (k2 > 2 && ~(c2 | (l2 << 2) | (r2 >>> 2)) == 0) continue;
        if (~(c2 | (l2 << k2) | (r2 >>> k2) | last) == 0) continue;
        setRow(y1, bit1);
        edgeRow(y + 2, c2, l2, r2);
      }
    }
  }
}

function edgeTail(c: i32, l: i32, r: i32): void {
  let free = ~(c | l | r);
  if (m - 1 == bound2) free = sideRule(free, c);
  edgeLeaves(free, c, l, r);
}

/** Row m − 1's candidates `free`, each with the one cell it leaves row m: the leaves. */
@inline function edgeLeaves(free: i32, c: i32, l: i32, r: i32): void {
  while (free != 0) {
    const bit = free & -free;
    free ^= bit;
    const final = ~(c | bit | ((l | bit) << 1) | ((r | bit) >>> 1));
    if (final == 0 || (final & last) != 0) continue;
    setRow(m - 1, bit);
    if (getRow(bound2) == 1 || final == half || getRow(b) == three) {
      setRow(m, final);
      const orbit = leafOrbit();
      if (orbit == 8) eight++;
      else if (orbit == 4) four++;
      else if (orbit == 2) two++;
    } else eight++;
  }
}

function sideRule(free: i32, above: i32): i32 {
  const placed = above & side;
  return placed == 0 ? 0 : placed != side ? free & side : free;
}

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

/** Rows m − 4 … m of an edge unit; the side rule where row m − B is among them. */
function edgeLast5(c: i32, l: i32, r: i32): void {
  const y4 = m - 4;
  let f4 = ~(c | l | r);
  if (bound2 == y4) f4 = sideRule(f4, c);
  const lastMask = last;
  while (f4 != 0) {
    const b4 = f4 & -f4;
    f4 ^= b4;
    const c4 = c | b4;
    const l4 = (l | b4) << 1;
    const r4 = (r | b4) >>> 1;
    if (~(c4 | (l4 << 1) | (r4 >>> 1)) == 0) continue;
    if (~(c4 | (l4 << 3) | (r4 >>> 3) | lastMask) == 0) continue;
    setRow(y4, b4);
    edgeLast4(c4, l4, r4);
  }
}

/** Rows m − 3 … m: three nested loops and the last row, as edgePlain and edgeTail do. */
@inline function edgeLast4(c: i32, l: i32, r: i32): void {
  const y3 = m - 3;
  const s3 = bound2 == y3;
  const s2 = bound2 == y3 + 1;
  const s1 = bound2 == y3 + 2;
  const lastMask = last;
  let f3 = ~(c | l | r);
  if (s3) f3 = sideRule(f3, c);
  while (f3 != 0) {
    const b3 = f3 & -f3;
    f3 ^= b3;
    const c3 = c | b3;
    const l3 = (l | b3) << 1;
    const r3 = (r | b3) >>> 1;
    if (~(c3 | (l3 << 1) | (r3 >>> 1)) == 0) continue;
    if (~(c3 | (l3 << 2) | (r3 >>> 2) | lastMask) == 0) continue;
    setRow(y3, b3);
    let f2 = ~(c3 | l3 | r3);
    if (s2) f2 = sideRule(f2, c3);
    while (f2 != 0) {
      const b2 = f2 & -f2;
      f2 ^= b2;
      const c2 = c3 | b2;
      const l2 = (l3 | b2) << 1;
      const r2 = (r3 | b2) >>> 1;
      if (~(c2 | (l2 << 1) | (r2 >>> 1) | lastMask) == 0) continue;
      setRow(y3 + 1, b2);
      let f1 = ~(c2 | l2 | r2);
      if (s1) f1 = sideRule(f1, c2);
      edgeLeaves(f1, c2, l2, r2);
    }
  }
}
