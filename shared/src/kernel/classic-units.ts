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
// re-walk the same upper rows once per compatible bottom/left/right queen; measured 1.5×
// (n = 16) to 2.5× (n = 17) slower than this search per core.
//
// A unit is fixed by the columns of rows 0 and 1, its key `a.b`: a corner unit `0.B` (queen at
// (0, 0), row 1 at column B), or `B.c` (row 0 at column B ≥ 1, row 1 at column c).
import { InvalidInputError } from './errors.js';
import { assertBoard, fullMask } from './board.js';

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
  return classicUnits(n).some((u) => u.first === first && u.second === second)
    ? { n, first, second }
    : undefined;
}

/** Counts one unit by `method`. */
export function countClassicUnit(
  unit: ClassicUnit,
  method: ClassicMethod = 'pruned',
): ClassicTotals {
  const { n } = unit;
  assertBoard(n, n - 1);
  if (!CLASSIC_METHODS.includes(method)) {
    throw new InvalidInputError('method', method, CLASSIC_METHODS.join(' or '));
  }
  if (n < 4 || unit.first === WHOLE_BOARD) {
    if (n >= 4 || unit.first !== WHOLE_BOARD) {
      throw new InvalidInputError('unit', classicUnitKey(unit), `a unit of Q(${n})`);
    }
    return wholeBoard(n);
  }
  if (!classicUnits(n).some((u) => u.first === unit.first && u.second === unit.second)) {
    throw new InvalidInputError(
      'unit',
      classicUnitKey(unit),
      `a unit of Q(${n}) (see classicUnits)`,
    );
  }
  const orbits =
    method === 'pruned'
      ? unit.first === 0
        ? countCorner(n, unit.second)
        : countEdge(n, unit.first, unit.second)
      : countByImages(n, [unit.first, unit.second], (board) => classify(n, board));
  return totalsOf(orbits);
}

/** Q(n) and the classes from every unit in turn (one thread). */
export function classicTotals(n: number, method: ClassicMethod = 'pruned'): ClassicTotals {
  let boards = 0n;
  let classes = 0n;
  for (const unit of classicUnits(n)) {
    const totals = countClassicUnit(unit, method);
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

/**
 * Corner unit `0.B`: every completion is canonical (orbit 8) once column 1 stays empty above
 * row B (its queen below row 1's, so the transposed board is not counted too). A bitmask DFS
 * on a typed-array stack; the last row is counted by whether a column is left.
 */
function countCorner(n: number, b: number): [number, number, number] {
  const full = fullMask(n);
  const m = n - 1;
  const avail = new Int32Array(n);
  const cols = new Int32Array(n);
  const left = new Int32Array(n);
  const right = new Int32Array(n);
  const bit0 = 1;
  const bit1 = 1 << b;
  cols[2] = bit0 | bit1;
  left[2] = ((((bit0 << 1) | bit1) << 1) & full) | 0;
  right[2] = ((bit0 >>> 1) | bit1) >>> 1;
  const start = ~(cols[2] | left[2] | right[2]) & full;
  avail[2] = 2 < b ? start & ~2 : start;
  let y = 2;
  let count = 0;
  while (y >= 2) {
    const free = avail[y] as number;
    if (free === 0) {
      y--;
      continue;
    }
    const bit = free & -free;
    avail[y] = free ^ bit;
    const c = (cols[y] as number) | bit;
    const l = (((left[y] as number) | bit) << 1) & full;
    const r = ((right[y] as number) | bit) >>> 1;
    let next = ~(c | l | r) & full;
    if (y + 1 === m) {
      if (next !== 0) count++;
      continue;
    }
    if (y + 1 < b) next &= ~2;
    if (y + 1 === m - 1) {
      // The last two rows inline, as in countEdge.
      while (next !== 0) {
        const bit2 = next & -next;
        next ^= bit2;
        if ((~(c | bit2 | (((l | bit2) << 1) & full) | ((r | bit2) >>> 1)) & full) !== 0) count++;
      }
      continue;
    }
    if (next === 0) continue;
    y++;
    cols[y] = c;
    left[y] = l;
    right[y] = r;
    avail[y] = next;
  }
  return [count, 0, 0];
}

/**
 * Edge unit `B.c`: Takaken's pruned search. Rows above B keep the side columns empty; by row
 * m − B both side queens are placed (else the branch ends); the last row's queen keeps B away
 * from the corners. Each leaf is compared with the rotations that put a queen at (0, B).
 * Hot loop: typed-array stack, masks in locals, the queens kept as bits (a column is only
 * computed for the rare leaf that needs the comparison).
 */
function countEdge(n: number, b: number, second: number): [number, number, number] {
  const full = fullMask(n);
  const m = n - 1;
  const bound2 = m - b;
  const side = (1 << m) | 1;
  let last = 0; // columns within b − 1 of either corner
  for (let k = 0; k < b; k++) last |= (1 << k) | (1 << (m - k));
  // Columns a row may not take whatever is above it: the sides, above row b.
  const forbid = new Int32Array(n);
  for (let y = 0; y < b; y++) forbid[y] = side;
  const bits = new Int32Array(n);
  bits[0] = 1 << b;
  bits[1] = 1 << second;
  const avail = new Int32Array(n);
  const cols = new Int32Array(n);
  const left = new Int32Array(n);
  const right = new Int32Array(n);
  const bit0 = 1 << b;
  const bit1 = 1 << second;
  cols[2] = bit0 | bit1;
  left[2] = (((bit0 << 1) | bit1) << 1) & full;
  right[2] = ((bit0 >>> 1) | bit1) >>> 1;
  const orbits: [number, number, number] = [0, 0, 0];
  // The rule of row m − b (both side queens placed by it) as a mask of what it may take.
  const sideRule = (free: number, down: number): number => {
    const placed = down & side;
    return placed === 0 ? 0 : placed !== side ? free & side : free;
  };
  let start = ~(cols[2] | left[2] | right[2] | (forbid[2] as number)) & full;
  if (bound2 === 2) start = sideRule(start, cols[2]);
  avail[2] = start;
  const quarter = 1; // bit of column 0
  const half = 1 << (m - b);
  const three = 1 << m;
  let y = 2;
  while (y >= 2) {
    const free = avail[y] as number;
    if (free === 0) {
      y--;
      continue;
    }
    const bit = free & -free;
    avail[y] = free ^ bit;
    bits[y] = bit;
    const c = (cols[y] as number) | bit;
    const l = (((left[y] as number) | bit) << 1) & full;
    const r = ((right[y] as number) | bit) >>> 1;
    const y1 = y + 1;
    let next = ~(c | l | r | (forbid[y1] as number)) & full;
    if (y1 === m) {
      if (next !== 0 && (next & last) === 0) {
        bits[m] = next;
        // Only a board with a rotation that also has a queen at (0, b) needs comparing.
        if (bits[bound2] === quarter || next === half || bits[b] === three) {
          const orbit = leafOrbit(n, columnsOf(bits), b);
          if (orbit !== 0) orbits[orbit === 8 ? 0 : orbit === 4 ? 1 : 2]++;
        } else orbits[0]++;
      }
      continue;
    }
    if (y1 === bound2) next = sideRule(next, c);
    if (y1 === m - 1) {
      // The last two rows inline: the deepest, most numerous level never touches the stack.
      bits[y1] = 0;
      while (next !== 0) {
        const bit2 = next & -next;
        next ^= bit2;
        const final = ~(c | bit2 | (((l | bit2) << 1) & full) | ((r | bit2) >>> 1)) & full;
        if (final === 0 || (final & last) !== 0) continue;
        bits[y1] = bit2;
        bits[m] = final;
        if (bits[bound2] === quarter || final === half || bits[b] === three) {
          const orbit = leafOrbit(n, columnsOf(bits), b);
          if (orbit !== 0) orbits[orbit === 8 ? 0 : orbit === 4 ? 1 : 2]++;
        } else orbits[0]++;
      }
      continue;
    }
    if (next === 0) continue;
    y = y1;
    cols[y] = c;
    left[y] = l;
    right[y] = r;
    avail[y] = next;
  }
  return orbits;
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

/** The 8 images of a board (columns per row). */
function images(board: readonly number[]): number[][] {
  const n = board.length;
  const m = n - 1;
  const maps: ((r: number, c: number) => [number, number])[] = [
    (r, c) => [r, c],
    (r, c) => [r, m - c],
    (r, c) => [m - r, c],
    (r, c) => [m - r, m - c],
    (r, c) => [c, r],
    (r, c) => [m - c, m - r],
    (r, c) => [c, m - r],
    (r, c) => [m - c, r],
  ];
  return maps.map((f) => {
    const out = new Array<number>(n).fill(0);
    board.forEach((c, r) => {
      const [r2, c2] = f(r, c);
      out[r2] = c2;
    });
    return out;
  });
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
