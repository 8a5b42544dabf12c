// Ordinary n-queens split into symmetry classes of pre-placed outer rows and columns, as the
// Q27 project split Q(27): every board has exactly one queen in row 0, in row n−1, in column 0
// and in column n−1. Those (up to) four queens, its *constellation*, map onto the constellation
// of the image board under each of the square's 8 symmetries, so the boards of a constellation
// class are counted once, on its canonical member c, and stand for |orbit(c)| = 8 / |stab(c)|
// boards each. The same enumeration gives the classes of boards (A002562): by Burnside's lemma
// on stab(c), the classes among c's completions are (Σ_{g ∈ stab(c)} fix(g)) / |stab(c)|.
//
// A work unit is every canonical constellation with the same top and bottom columns (the
// "pre-placed outer rows"); its subtotal is published with that class so anyone can recount it.
import { InvalidInputError } from './errors.js';
import { assertBoard, fullMask, popcount } from './board.js';

/** A queen as [row, column]. */
type Queen = readonly [number, number];

/** The 8 symmetries of the square on one cell of an n×n board (m = n − 1). */
const SYMMETRY_MAPS: ReadonlyArray<(r: number, c: number, m: number) => Queen> = [
  (r, c) => [r, c], // identity
  (r, c, m) => [r, m - c], // mirror left–right
  (r, c, m) => [m - r, c], // mirror top–bottom
  (r, c, m) => [m - r, m - c], // rotate 180°
  (r, c) => [c, r], // transpose
  (r, c, m) => [m - c, m - r], // anti-transpose
  (r, c, m) => [c, m - r], // rotate 90°
  (r, c, m) => [m - c, r], // rotate 270°
];
const TRANSPOSE = 4;

/** One canonical constellation: its border queens, and the symmetries that fix it. */
export interface Constellation {
  /** Columns of the queens in rows 0 and n−1, rows of those in columns 0 and n−1. */
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
  /** Indices into the 8 symmetries (identity, 0, always first) that map it onto itself. */
  readonly stabiliser: readonly number[];
}

/** A unit of Q(n): the canonical constellations whose outer rows read top, bottom. */
export interface ClassicUnit {
  readonly n: number;
  readonly top: number;
  readonly bottom: number;
}

/** What a unit adds to Q(n) and to the number of classes (A002562). */
export interface ClassicTotals {
  /** Boards: Σ |orbit(c)| · completions(c). */
  readonly boards: bigint;
  /** Classes of boards under the 8 symmetries: Σ (Σ_{g ∈ stab(c)} fix(g)) / |stab(c)|. */
  readonly classes: bigint;
  /** Canonical constellations counted. */
  readonly constellations: number;
}

/**
 * How a unit is counted: `rows` fills each constellation's inner rows top down; `columns`
 * counts the transposed constellation instead (its completions are the transposed boards, so
 * the totals are the same but every search tree is another one): the second count of `--verify`.
 */
export type ClassicMethod = 'rows' | 'columns';
export const CLASSIC_METHODS: readonly ClassicMethod[] = ['rows', 'columns'];

/** Boards below 4×4 have no four distinct border rows and columns: one unit counts them whole. */
export const WHOLE_BOARD = -1;

/** The border queens of (top, bottom, left, right), or undefined when they are not legal. */
function borderQueens(n: number, t: number, b: number, l: number, r: number): Queen[] | undefined {
  const m = n - 1;
  // A corner queen is in a row and a column at once: both must name it.
  if ((t === 0) !== (l === 0) || (t === m) !== (r === 0)) return undefined;
  if ((b === 0) !== (l === m) || (b === m) !== (r === m)) return undefined;
  const cells: Queen[] = [
    [0, t],
    [m, b],
    [l, 0],
    [r, m],
  ];
  const queens: Queen[] = [];
  for (const q of cells) if (!queens.some(([qr, qc]) => qr === q[0] && qc === q[1])) queens.push(q);
  for (let i = 0; i < queens.length; i++) {
    for (let j = i + 1; j < queens.length; j++) {
      const [r1, c1] = queens[i] as Queen;
      const [r2, c2] = queens[j] as Queen;
      if (r1 === r2 || c1 === c2 || Math.abs(r1 - r2) === Math.abs(c1 - c2)) return undefined;
    }
  }
  return queens;
}

/** (top, bottom, left, right) of a set of border queens. */
function readBorder(n: number, queens: readonly Queen[]): [number, number, number, number] {
  const m = n - 1;
  const at = (pick: (q: Queen) => boolean, value: (q: Queen) => number): number =>
    value(queens.find(pick) as Queen);
  return [
    at(
      ([r]) => r === 0,
      ([, c]) => c,
    ),
    at(
      ([r]) => r === m,
      ([, c]) => c,
    ),
    at(
      ([, c]) => c === 0,
      ([r]) => r,
    ),
    at(
      ([, c]) => c === m,
      ([r]) => r,
    ),
  ];
}

function encode(n: number, [t, b, l, r]: readonly number[]): number {
  return (((t as number) * n + (b as number)) * n + (l as number)) * n + (r as number);
}

/** The image of a constellation's queens under symmetry `g`. */
function imageOf(n: number, queens: readonly Queen[], g: number): Queen[] {
  const map = SYMMETRY_MAPS[g] as (r: number, c: number, m: number) => Queen;
  return queens.map(([r, c]) => map(r, c, n - 1));
}

const CACHE = new Map<number, readonly Constellation[]>();

/** Every canonical constellation of an n×n board (n ≥ 4), in order of (top, bottom, left, right). */
export function constellations(n: number): readonly Constellation[] {
  assertBoard(n, n - 1);
  if (n < 4) return [];
  // Units, job parsers and the sum all ask for the same list: it is made once per n.
  const known = CACHE.get(n);
  if (known) return known;
  const out: Constellation[] = [];
  for (let t = 0; t < n; t++) {
    for (let b = 0; b < n; b++) {
      for (let l = 0; l < n; l++) {
        for (let r = 0; r < n; r++) {
          const queens = borderQueens(n, t, b, l, r);
          if (!queens) continue;
          const own = encode(n, [t, b, l, r]);
          const stabiliser: number[] = [];
          let canonical = true;
          for (let g = 0; g < SYMMETRY_MAPS.length && canonical; g++) {
            const code = encode(n, readBorder(n, imageOf(n, queens, g)));
            if (code < own) canonical = false;
            else if (code === own) stabiliser.push(g);
          }
          if (canonical) out.push({ top: t, bottom: b, left: l, right: r, stabiliser });
        }
      }
    }
  }
  CACHE.set(n, out);
  return out;
}

/** The units of Q(n) in order: one per (top, bottom) of canonical constellations. */
export function classicUnits(n: number): ClassicUnit[] {
  assertBoard(n, n - 1);
  if (n < 4) return [{ n, top: WHOLE_BOARD, bottom: WHOLE_BOARD }];
  const units: ClassicUnit[] = [];
  for (const c of constellations(n)) {
    const last = units[units.length - 1];
    if (last?.top !== c.top || last.bottom !== c.bottom) {
      units.push({ n, top: c.top, bottom: c.bottom });
    }
  }
  return units;
}

/** A unit's identity in the result store and in job ids: `t3.b11`, or `*` for a whole board. */
export function classicUnitKey(unit: Pick<ClassicUnit, 'top' | 'bottom'>): string {
  return unit.top === WHOLE_BOARD ? '*' : `t${unit.top}.b${unit.bottom}`;
}

/** The unit a key names on an n×n board, or undefined when it is no unit of Q(n). */
export function parseClassicUnitKey(n: number, key: string): ClassicUnit | undefined {
  if (key === '*') return n < 4 ? { n, top: WHOLE_BOARD, bottom: WHOLE_BOARD } : undefined;
  const match = /^t(\d{1,2})\.b(\d{1,2})$/.exec(key);
  if (!match || n < 4) return undefined;
  const top = Number(match[1]);
  const bottom = Number(match[2]);
  return classicUnits(n).some((u) => u.top === top && u.bottom === bottom)
    ? { n, top, bottom }
    : undefined;
}

/** Counts one unit: its boards, its classes and how many constellations it held. */
export function countClassicUnit(unit: ClassicUnit, method: ClassicMethod = 'rows'): ClassicTotals {
  const { n } = unit;
  assertBoard(n, n - 1);
  if (!CLASSIC_METHODS.includes(method)) {
    throw new InvalidInputError('method', method, CLASSIC_METHODS.join(' or '));
  }
  if (n < 4) {
    if (unit.top !== WHOLE_BOARD) throw new InvalidInputError('top', unit.top, `${WHOLE_BOARD}`);
    return wholeBoard(n);
  }
  let boards = 0n;
  let classes = 0n;
  let count = 0;
  for (const c of constellations(n)) {
    if (c.top !== unit.top || c.bottom !== unit.bottom) continue;
    count++;
    let queens: Queen[] = borderQueens(n, c.top, c.bottom, c.left, c.right) as Queen[];
    if (method === 'columns') queens = imageOf(n, queens, TRANSPOSE);
    const completions = countCompletions(n, queens);
    const size = c.stabiliser.length;
    boards += BigInt(completions * (8 / size));
    if (size === 1) {
      classes += BigInt(completions);
      continue;
    }
    // A fixed board of g counted on the transposed constellation is the transpose of one of c.
    const symmetries = c.stabiliser.slice(1);
    const fixed = countFixedCompletions(n, queens, symmetries, method === 'columns');
    classes += BigInt((completions + fixed) / size);
  }
  if (count === 0) {
    throw new InvalidInputError(
      'unit',
      classicUnitKey(unit),
      `the outer rows of a canonical constellation of Q(${n})`,
    );
  }
  return { boards, classes, constellations: count };
}

/** Q(n) and the number of classes, from every unit in turn (one thread). */
export function classicTotals(n: number, method: ClassicMethod = 'rows'): ClassicTotals {
  let boards = 0n;
  let classes = 0n;
  let count = 0;
  for (const unit of classicUnits(n)) {
    const totals = countClassicUnit(unit, method);
    boards += totals.boards;
    classes += totals.classes;
    count += totals.constellations;
  }
  return { boards, classes, constellations: count };
}

/** Per row: the columns its border queens attack (their columns and diagonals) or hold. */
function borderBlocks(n: number, queens: readonly Queen[]): Int32Array {
  const blocked = new Int32Array(n);
  for (let row = 0; row < n; row++) {
    let mask = 0;
    for (const [r, c] of queens) {
      const d = Math.abs(row - r);
      mask |= 1 << c;
      if (c + d < n) mask |= 1 << (c + d);
      if (c - d >= 0) mask |= 1 << (c - d);
    }
    blocked[row] = mask;
  }
  return blocked;
}

/** The rows without a border queen: the rows the search fills. */
function freeRows(n: number, queens: readonly Queen[]): number[] {
  const taken = new Set(queens.map(([r]) => r));
  return Array.from({ length: n }, (_, r) => r).filter((r) => !taken.has(r));
}

/**
 * Completions of a constellation: a bitmask DFS over its free rows only. The border queens'
 * attacks are precomputed per row, so a queen of the search never attacks them (attack is
 * symmetric) and they need no place in the shifting diagonal masks. Typed-array stack, no
 * recursion, and the last row is counted by popcount: this is the hot loop of Q(n).
 */
function countCompletions(n: number, queens: readonly Queen[]): number {
  const rows = freeRows(n, queens);
  const k = rows.length;
  if (k === 0) return 1;
  const blocked = borderBlocks(n, queens);
  const full = fullMask(n);
  if (k === 1) return popcount(~(blocked[rows[0] as number] as number) & full);
  const shift = new Int32Array(k);
  const block = new Int32Array(k);
  for (let i = 0; i < k; i++) {
    shift[i] = i === 0 ? 0 : (rows[i] as number) - (rows[i - 1] as number);
    block[i] = blocked[rows[i] as number] as number;
  }
  const avail = new Int32Array(k);
  const cols = new Int32Array(k);
  const left = new Int32Array(k);
  const right = new Int32Array(k);
  avail[0] = ~(block[0] as number) & full;
  let level = 0;
  let total = 0;
  const last = k - 1;
  while (level >= 0) {
    const free = avail[level] as number;
    if (free === 0) {
      level--;
      continue;
    }
    const bit = free & -free;
    avail[level] = free ^ bit;
    const s = shift[level + 1] as number;
    const c = (cols[level] as number) | bit;
    const l = (((left[level] as number) | bit) << s) & full;
    const r = ((right[level] as number) | bit) >>> s;
    const next = ~(c | l | r | (block[level + 1] as number)) & full;
    if (level + 1 === last) {
      total += popcount(next);
      continue;
    }
    if (next === 0) continue;
    level++;
    cols[level] = c;
    left[level] = l;
    right[level] = r;
    avail[level] = next;
  }
  return total;
}

/**
 * Σ over the symmetries given of the completions each leaves unchanged. Only constellations
 * with a symmetry come here (a few per thousand), so it is a plain recursive search that keeps
 * the board. `transposed`: the queens are the transposed constellation's, so a board is read
 * back through the transpose before the symmetry is applied.
 */
function countFixedCompletions(
  n: number,
  queens: readonly Queen[],
  symmetries: readonly number[],
  transposed: boolean,
): number {
  const rows = freeRows(n, queens);
  const blocked = borderBlocks(n, queens);
  const full = fullMask(n);
  const board = new Array<number>(n).fill(-1);
  for (const [r, c] of queens) board[r] = c;
  const m = n - 1;
  let fixed = 0;
  const isFixed = (g: number): boolean => {
    let cells: Queen[] = board.map((c, r) => [r, c] as Queen);
    if (transposed) cells = cells.map(([r, c]) => [c, r] as Queen);
    const own = new Array<number>(n);
    for (const [r, c] of cells) own[r] = c;
    const map = SYMMETRY_MAPS[g] as (r: number, c: number, m: number) => Queen;
    return cells.every(([r, c]) => {
      const [r2, c2] = map(r, c, m);
      return own[r2] === c2;
    });
  };
  const place = (i: number, cols: number, left: number, right: number): void => {
    if (i === rows.length) {
      for (const g of symmetries) if (isFixed(g)) fixed++;
      return;
    }
    const row = rows[i] as number;
    const distance = i === 0 ? 0 : row - (rows[i - 1] as number);
    const l = (left << distance) & full;
    const r = right >>> distance;
    let free = ~(cols | l | r | (blocked[row] as number)) & full;
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      board[row] = 31 - Math.clz32(bit);
      place(i + 1, cols | bit, l | bit, r | bit);
    }
  };
  place(0, 0, 0, 0);
  return fixed;
}

/** n < 4: every board listed and its fixed points counted directly. */
function wholeBoard(n: number): ClassicTotals {
  const boards: number[][] = [];
  const columns: number[] = [];
  const place = (row: number): void => {
    if (row === n) {
      boards.push([...columns]);
      return;
    }
    for (let c = 0; c < n; c++) {
      if (columns.some((a, r) => a === c || Math.abs(a - c) === row - r)) continue;
      columns.push(c);
      place(row + 1);
      columns.pop();
    }
  };
  place(0);
  let fixedTotal = 0;
  for (const board of boards) {
    for (const map of SYMMETRY_MAPS) {
      if (board.every((c, r) => board[map(r, c, n - 1)[0]] === map(r, c, n - 1)[1])) fixedTotal++;
    }
  }
  return {
    boards: BigInt(boards.length),
    classes: BigInt(fixedTotal / SYMMETRY_MAPS.length),
    constellations: 0,
  };
}
