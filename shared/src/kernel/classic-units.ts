// Ordinary n-queens split into units by pre-placed outer rows, each board class counted once
// with its multiplicity, so one enumeration yields Q(n) (A000170) and the classes under the 8
// symmetries (A002562). The canonical board of a class is chosen as in Takaken's search: the
// queen of row 0 is the border queen nearest a corner (at column B, left half), every border
// queen is at least B from the corners, and among the rotations that also put a queen at
// column B of row 0 the board is the lexicographically smallest (reflections never tie: they
// would need two queens on one line). A board with a corner queen has an orbit of 8, counted
// with the corner at (0, 0) and its column-1 queen below row 1's. No reflection fixes a board,
// so a class weighs 8, 4 (fixed by the half turn) or 2 (by the quarter turn).
//
// Why not Q27's constellations (the four border queens pre-placed): on a CPU their searches
// re-walk the same upper rows once per compatible bottom/left/right queen, and measured slower
// per core than this search. How the search is shaped for speed: the comment above
// countCorner; the measurements behind both choices are in docs/benchmarks.md (notes).
//
// A unit is fixed by the columns of rows 0 and 1, its key `a.b`: a corner unit `0.B` (queen at
// (0, 0), row 1 at column B), or `B.c` (row 0 at column B ≥ 1, row 1 at column c).
import { InvalidInputError } from './errors.js';
import { assertBoard, fullMask } from './board.js';
import { classicWasm } from './classic-wasm.js';

/** A unit of Q(n): the canonical boards whose rows 0 and 1 hold these columns. */
export interface ClassicUnit {
  readonly n: number;
  /** Column of row 0 (0: the corner case), or WHOLE_BOARD. */
  readonly first: number;
  /** Column of row 1, or WHOLE_BOARD. */
  readonly second: number;
}

/** What a unit adds to Q(n) and to the number of classes (A002562). */
export interface ClassicTotals {
  /** Boards: Σ over its canonical boards of their orbit's size. */
  readonly boards: bigint;
  /** Classes of boards under the 8 symmetries: its canonical boards. */
  readonly classes: bigint;
}

/**
 * How a unit is counted: `pruned` is the search that never enters a non-canonical branch
 * (border masks) and compares rotations only at the leaves; `images` (the second count of
 * `--verify`) walks every board with the unit's two rows and classifies each one from its 8
 * images, another search tree and another canonicity test that must agree.
 */
export type ClassicMethod = 'pruned' | 'images';
export const CLASSIC_METHODS: readonly ClassicMethod[] = ['pruned', 'images'];

/**
 * Which code runs `pruned`: `wasm` (the WebAssembly build of the same search, classic-wasm.ts),
 * `js` (the TypeScript below, the reference), or `auto`: wasm when the build has it.
 */
export type ClassicEngine = 'auto' | 'wasm' | 'js';
export const CLASSIC_ENGINES: readonly ClassicEngine[] = ['auto', 'wasm', 'js'];

/** Boards below 4×4 have no canonical split: one unit counts them whole. */
export const WHOLE_BOARD = -1;

/** The units of Q(n) in order: corner units `0.B`, then `B.c` by B and c. */
export function classicUnits(n: number): ClassicUnit[] {
  assertBoard(n, n - 1);
  if (n < 4) return [{ n, first: WHOLE_BOARD, second: WHOLE_BOARD }];
  const m = n - 1;
  const units: ClassicUnit[] = [];
  for (let b = 2; b < m; b++) units.push({ n, first: 0, second: b });
  for (let b = 1; b < m - b; b++) {
    for (let c = 0; c < n; c++) {
      if (Math.abs(c - b) <= 1) continue; // the same column or a diagonal of row 0's queen
      if (1 < b && (c === 0 || c === m)) continue; // a border queen nearer a corner than b
      if (1 === m - b && c !== 0 && c !== m) continue; // never for n ≥ 4; kept for the rule
      units.push({ n, first: b, second: c });
    }
  }
  return units;
}

/** A unit's identity in the result store and in job ids: `3.7`, or `*` for a whole board. */
export function classicUnitKey(unit: Pick<ClassicUnit, 'first' | 'second'>): string {
  return unit.first === WHOLE_BOARD ? '*' : `${unit.first}.${unit.second}`;
}

/** The unit a key names on an n×n board, or undefined when it is no unit of Q(n). */
export function parseClassicUnitKey(n: number, key: string): ClassicUnit | undefined {
  if (!Number.isInteger(n) || n < 1 || n > 32) return undefined;
  if (key === '*') return n < 4 ? { n, first: WHOLE_BOARD, second: WHOLE_BOARD } : undefined;
  const match = /^(\d{1,2})\.(\d{1,2})$/.exec(key);
  if (!match || n < 4) return undefined;
  const first = Number(match[1]);
  const second = Number(match[2]);
  return unitKeysOf(n).has(key) ? { n, first, second } : undefined;
}

// Every job, batch and stored unit names its units by key, so a worker parses hundreds of
// keys per n: the key set is built once per n rather than the unit list once per key.
const unitKeysByN = new Map<number, ReadonlySet<string>>();

function unitKeysOf(n: number): ReadonlySet<string> {
  let keys = unitKeysByN.get(n);
  if (!keys) {
    keys = new Set(classicUnits(n).map(classicUnitKey));
    unitKeysByN.set(n, keys);
  }
  return keys;
}

/** Counts one unit by `method` (`engine`: which code runs `pruned`). */
export function countClassicUnit(
  unit: ClassicUnit,
  method: ClassicMethod = 'pruned',
  engine: ClassicEngine = 'auto',
): ClassicTotals {
  const { n } = unit;
  assertBoard(n, n - 1);
  if (!CLASSIC_METHODS.includes(method)) {
    throw new InvalidInputError('method', method, CLASSIC_METHODS.join(' or '));
  }
  if (!CLASSIC_ENGINES.includes(engine)) {
    throw new InvalidInputError('engine', engine, CLASSIC_ENGINES.join(' or '));
  }
  if (n < 4 || unit.first === WHOLE_BOARD) {
    if (n >= 4 || unit.first !== WHOLE_BOARD) {
      throw new InvalidInputError('unit', classicUnitKey(unit), `a unit of Q(${n})`);
    }
    return wholeBoard(n);
  }
  if (!unitKeysOf(n).has(classicUnitKey(unit))) {
    throw new InvalidInputError(
      'unit',
      classicUnitKey(unit),
      `a unit of Q(${n}) (see classicUnits)`,
    );
  }
  if (method === 'images') {
    return totalsOf(countByImages(n, [unit.first, unit.second], (board) => classify(n, board)));
  }
  const wasm = engine === 'js' ? undefined : classicWasm();
  if (engine === 'wasm' && wasm === undefined) {
    throw new Error('classic-units.wasm is missing: build @weak-queens/shared (npm run build)');
  }
  if (wasm === undefined) {
    return totalsOf(
      unit.first === 0 ? countCorner(n, unit.second) : countEdge(n, unit.first, unit.second),
    );
  }
  const high = ~fullMask(n);
  if (unit.first === 0) return totalsOf([wasm.countCorner(n, unit.second, high), 0, 0]);
  wasm.countEdge(n, unit.first, unit.second, high);
  return totalsOf([wasm.eights(), wasm.fours(), wasm.twos()]);
}

/** Q(n) and the classes from every unit in turn (one thread). */
export function classicTotals(
  n: number,
  method: ClassicMethod = 'pruned',
  engine: ClassicEngine = 'auto',
): ClassicTotals {
  let boards = 0n;
  let classes = 0n;
  for (const unit of classicUnits(n)) {
    const totals = countClassicUnit(unit, method, engine);
    boards += totals.boards;
    classes += totals.classes;
  }
  return { boards, classes };
}

function totalsOf([eight, four, two]: readonly number[]): ClassicTotals {
  const e = eight ?? 0;
  const f = four ?? 0;
  const t = two ?? 0;
  return {
    boards: BigInt(e) * 8n + BigInt(f) * 4n + BigInt(t) * 2n,
    classes: BigInt(e + f + t),
  };
}

// The pruned search, shaped for V8 (every choice below measured on Q(16), one thread):
// - plain recursion with the masks as arguments: a call per node costs less than a stack in
//   typed arrays (Q(16) without symmetry: 4.2 s against 5.3 s);
// - two rows per call (one loop nested in another), and the last three rows of a branch in
//   one call: half the calls (3.55 s against 4.1 s);
// - the columns mask carries every bit above n set, so `~(c | l | r)` is already the free
//   columns: no mask in the loops, and the left diagonal's bits above n never matter (they
//   fall off at bit 31);
// - one function per phase of rows (sides forbidden / plain / the side rule / the tail), each
//   picking the next row's function once per call, not once per child, so the row rules cost
//   nothing per node. Corner units run the edge units' rows, as in WebAssembly: below row B a
//   corner unit is an edge unit with no side rule, no last-row rule and no leaf to compare
//   (Q(16) with engine js: the same CPU time as a corner search of its own, within noise);
// - a branch ends as soon as the row after the next one, or the last row (for an edge unit:
//   outside `last`), has no free cell left by the queens placed so far (Q(16): 2.09 s against
//   1.87 s for the first check; the second wins about 4% in WebAssembly, nothing in V8).
// The unit being counted lives in module state so the functions stay small and monomorphic;
// a unit is counted synchronously, never two at a time in one thread. classic-wasm.ts runs
// the same search compiled from shared/assembly/classic-units.ts: the same rules and counts,
// its loops shaped for WebAssembly instead (the last nine rows nested; that file says why).
let m = 0; // the last row and column
let b = 0; // row 0's column (edge unit) or row 1's (corner unit)
let bound2 = 0; // m − b: both side queens are placed by this row
let side = 0; // columns 0 and m
let banned = 0; // what rows 2 … B − 1 keep empty: column 1 (corner unit) or the sides (edge)
let last = 0; // columns the last row may not take: within b − 1 of a corner
let half = 0; // the last row's column that the half turn maps to (0, b)
let three = 0; // row b's column that three quarter turns map to (0, b): column m
// Each row's queen as a bit, for the rare leaf that is compared with its rotations.
const rows = new Int32Array(32);
// A leaf is compared when row `checkRow` holds column 0, the last row `half`, or row B
// `three`; a corner unit makes all three false (its row 1 never holds column 0).
let checkRow = 0;
// A value no row's bit takes (a row holds exactly one bit).
const NO_ROW_BIT = -1;
let eight = 0;
let four = 0;
let two = 0;

/**
 * Corner unit `0.B`: every completion is canonical (orbit 8) once column 1 stays empty above
 * row B (its queen below row 1's, so the transposed board is not counted too). Below row B
 * it runs the edge units' rows with their rules switched off.
 */
function countCorner(n: number, second: number): [number, number, number] {
  m = n - 1;
  b = second;
  bound2 = -1;
  last = 0;
  banned = 2;
  checkRow = 1;
  half = NO_ROW_BIT;
  three = NO_ROW_BIT;
  eight = four = two = 0;
  const bit1 = 1 << second;
  rows[0] = 1;
  rows[1] = bit1;
  const c = ~fullMask(n) | 1 | bit1;
  const l = (2 | bit1) << 1;
  const r = bit1 >>> 1;
  searchRow(2, c, l, r);
  return [eight, 0, 0];
}

/**
 * Edge unit `B.c`: Takaken's pruned search. Rows above B keep the side columns empty; by row
 * m − B both side queens are placed (else the branch ends); the last row's queen keeps B away
 * from the corners. Each leaf is compared with the rotations that put a queen at (0, B).
 */
function countEdge(n: number, first: number, second: number): [number, number, number] {
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
  eight = four = two = 0;
  const bit0 = 1 << b;
  const bit1 = 1 << second;
  rows[0] = bit0;
  rows[1] = bit1;
  searchRow(2, ~fullMask(n) | bit0 | bit1, ((bit0 << 1) | bit1) << 1, ((bit0 >>> 1) | bit1) >>> 1);
  return [eight, four, two];
}

/** Row y of either kind of unit, by the phase it is in. */
function searchRow(y: number, c: number, l: number, r: number): void {
  if (y < b) searchUpper(y, c, l, r);
  else if (y === m - 1) searchTail(c, l, r);
  else if (y === bound2) searchSide(y, c, l, r);
  else searchPlain(y, c, l, r);
}

/** Rows 2 … B − 1: the `banned` columns stay empty. */
function searchUpper(y: number, c: number, l: number, r: number): void {
  let free = ~(c | l | r | banned);
  const y1 = y + 1;
  const upper = y1 < b;
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    rows[y] = bit;
    if (upper) searchUpper(y1, c | bit, (l | bit) << 1, (r | bit) >>> 1);
    else searchRow(y1, c | bit, (l | bit) << 1, (r | bit) >>> 1);
  }
}

/** Row m − B: both side queens placed by it, so it takes the missing one if any. */
function searchSide(y: number, c: number, l: number, r: number): void {
  let free = sideRule(~(c | l | r), c);
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    rows[y] = bit;
    searchRow(y + 1, c | bit, (l | bit) << 1, (r | bit) >>> 1);
  }
}

/**
 * A row between B and m − 2 other than m − B: with the next row in the same call when that
 * one is plain too, with the last two rows when it is m − 2.
 */
function searchPlain(y: number, c: number, l: number, r: number): void {
  let free = ~(c | l | r);
  const y1 = y + 1;
  const single = y1 === bound2;
  const last3 = y1 === m - 1;
  const k2 = m - y - 2; // from row y + 2 to the last row
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    rows[y] = bit;
    const c1 = c | bit;
    const l1 = (l | bit) << 1;
    const r1 = (r | bit) >>> 1;
    if (last3) searchTail(c1, l1, r1);
    else if (~(c1 | (l1 << 1) | (r1 >>> 1)) === 0)
      continue; // row y + 2 blocked already
    else if (single) searchSide(y1, c1, l1, r1);
    else {
      let free1 = ~(c1 | l1 | r1);
      while (free1 !== 0) {
        const bit1 = free1 & -free1;
        free1 ^= bit1;
        const c2 = c1 | bit1;
        const l2 = (l1 | bit1) << 1;
        const r2 = (r1 | bit1) >>> 1;
        if (~(c2 | (l2 << 1) | (r2 >>> 1)) === 0) continue;
        // The last row already without a column it may take.
        if (~(c2 | (l2 << k2) | (r2 >>> k2) | last) === 0) continue;
        rows[y1] = bit1;
        searchRow(y + 2, c2, l2, r2);
      }
    }
  }
}

/** The last two rows: each completion whose last queen keeps B from the corners is a leaf. */
function searchTail(c: number, l: number, r: number): void {
  let free = ~(c | l | r);
  if (m - 1 === bound2) free = sideRule(free, c);
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    const final = ~(c | bit | ((l | bit) << 1) | ((r | bit) >>> 1));
    if (final === 0 || (final & last) !== 0) continue;
    rows[m - 1] = bit;
    // Only a board with a rotation that also has a queen at (0, b) needs comparing.
    if (rows[checkRow] === 1 || final === half || rows[b] === three) {
      rows[m] = final;
      const orbit = leafOrbit(m + 1, columnsOf(rows.subarray(0, m + 1)), b);
      if (orbit === 8) eight++;
      else if (orbit === 4) four++;
      else if (orbit === 2) two++;
    } else eight++;
  }
}

/** What row m − B may take: the missing side column, any column, or none (both missing). */
function sideRule(free: number, above: number): number {
  const placed = above & side;
  return placed === 0 ? 0 : placed !== side ? free & side : free;
}

function columnsOf(bits: Int32Array): Int32Array {
  return bits.map((bit) => 31 - Math.clz32(bit));
}

/**
 * A leaf of the pruned search (border conditions already met): 0 when a rotation that also
 * has its row-0 queen at column b is lexicographically smaller, else its orbit's size.
 */
function leafOrbit(n: number, board: Int32Array, b: number): 0 | 2 | 4 | 8 {
  const m = n - 1;
  // Quarter turn (r, c) → (c, m − r) maps (m − b, 0) to (0, b).
  if (board[m - b] === 0) {
    const order = compareRotation(n, board, 1);
    if (order > 0) return 0;
    if (order === 0) return 2;
  }
  // Half turn maps (m, m − b) to (0, b).
  if (board[m] === m - b) {
    const order = compareRotation(n, board, 2);
    if (order > 0) return 0;
    if (order === 0) return 4;
  }
  // Three quarter turns map (b, m) to (0, b).
  if (board[b] === m && compareRotation(n, board, 3) > 0) return 0;
  return 8;
}

/** The sign of board − rotation^k(board), lexicographically by rows (columns as numbers). */
function compareRotation(n: number, board: Int32Array, quarter: 1 | 2 | 3): number {
  const m = n - 1;
  const image = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const c = board[r] as number;
    if (quarter === 1) image[c] = m - r;
    else if (quarter === 2) image[m - r] = m - c;
    else image[m - c] = r;
  }
  for (let r = 0; r < n; r++) {
    const d = (board[r] as number) - (image[r] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The second method: every board whose first rows are `fixed`, by a plain recursive search
 * with no pruning but legality, each one classified by `classify` from its images.
 */
function countByImages(
  n: number,
  fixed: readonly number[],
  classifyBoard: (board: readonly number[], n: number) => 0 | 2 | 4 | 8,
): [number, number, number] {
  const orbits: [number, number, number] = [0, 0, 0];
  const board: number[] = [];
  const place = (row: number): void => {
    if (row === n) {
      const orbit = classifyBoard(board, n);
      if (orbit !== 0) orbits[orbit === 8 ? 0 : orbit === 4 ? 1 : 2]++;
      return;
    }
    for (let c = 0; c < n; c++) {
      if (row < fixed.length && fixed[row] !== c) continue;
      if (board.some((a, r) => a === c || Math.abs(a - c) === row - r)) continue;
      board.push(c);
      place(row + 1);
      board.pop();
    }
  };
  place(0);
  return orbits;
}

/** The 8 images of a board (columns per row): its 4 rotations and their mirror images. */
function images(board: readonly number[]): number[][] {
  const m = board.length - 1;
  const out: number[][] = [];
  let image = [...board];
  for (let turn = 0; turn < 4; turn++) {
    out.push(
      image,
      image.map((c) => m - c),
    );
    // A quarter turn takes the queen (r, c) to (c, m − r).
    const next = new Array<number>(board.length).fill(0);
    image.forEach((c, r) => {
      next[c] = m - r;
    });
    image = next;
  }
  return out;
}

function lexCompare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Orbit size from the number of images equal to the board. */
function orbitOf(board: readonly number[]): 2 | 4 | 8 {
  const same = images(board).filter((image) => lexCompare(image, board) === 0).length;
  return (8 / same) as 2 | 4 | 8;
}

/**
 * Whether a board is its class's canonical one, from its 8 images, without the search's masks:
 * corner at (0, 0) with the column-1 queen below row 1's; or row 0's queen at the least
 * distance b from a corner of any border queen, in the left half, and the board no larger
 * than any image that also has its row-0 queen at column b.
 */
function classify(n: number, board: readonly number[]): 0 | 2 | 4 | 8 {
  const m = n - 1;
  const first = board[0] as number;
  if (first === 0) return board.indexOf(1) > (board[1] as number) ? orbitOf(board) : 0;
  const distance = (k: number): number => Math.min(k, m - k);
  const borders = [first, board[m] as number, board.indexOf(0), board.indexOf(m)];
  if (Math.min(...borders.map(distance)) < first || 2 * first >= m) return 0;
  const own = images(board);
  if (own.some((image) => image[0] === first && lexCompare(image, board) < 0)) return 0;
  return orbitOf(board);
}

/** n < 4: every board (one on 1×1, none on 2×2 and 3×3), each the smallest of its images or not. */
function wholeBoard(n: number): ClassicTotals {
  let boards = 0n;
  let classes = 0n;
  countByImages(n, [], (board) => {
    boards++;
    if (!images(board).some((image) => lexCompare(image, board) < 0)) classes++;
    return 0;
  });
  return { boards, classes };
}
