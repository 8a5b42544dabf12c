// The classic family: ordinary n-queens is D = n−1. Counts, classes under the board's eight
// symmetries, and the boards themselves as a lazy stream.
import { assertBoard, blockedInRow, fullMask } from './board.js';
import { countPlacements } from './plan.js';

/** Q(n) = N(n, n−1), OEIS A000170. */
export function classicCount(n: number): bigint {
  assertBoard(n, n - 1);
  return countPlacements(n, n - 1);
}

/**
 * Boards of an (n, D) problem (ordinary queens by default) in lexicographic order, one array of
 * columns per board (row r holds its queen in column board[r]). Lazy: stop whenever you like.
 */
export function* listBoards(n: number, depth = n - 1): Generator<number[]> {
  assertBoard(n, depth);
  const full = fullMask(n);
  const columns = new Array<number>(n).fill(0);
  // free[r]: the columns still to try in row r (an explicit stack, so the generator stays flat).
  const free = new Int32Array(n + 1);
  let row = 0;
  free[0] = full;
  while (row >= 0) {
    const options = free[row] ?? 0;
    if (options === 0) {
      row--;
      continue;
    }
    const bit = options & -options;
    free[row] = options ^ bit;
    columns[row] = 31 - Math.clz32(bit);
    if (row === n - 1) {
      yield columns.slice();
      continue;
    }
    row++;
    free[row] = ~blockedInRow(n, depth, columns, row) & full;
  }
}

/** The eight symmetries of the square, as maps of a board (columns per row) to a board. */
const SYMMETRIES: ReadonlyArray<(board: readonly number[]) => number[]> = [
  (b) => [...b],
  (b) => b.map((c) => b.length - 1 - c), // mirror left–right
  (b) => [...b].reverse(), // mirror top–bottom
  (b) => [...b].reverse().map((c) => b.length - 1 - c), // rotate 180°
  (b) => invert(b), // transpose
  (b) =>
    invert(b)
      .map((c) => b.length - 1 - c)
      .reverse(), // anti-transpose
  (b) => invert(b).reverse(), // rotate 90°
  (b) => invert(b).map((c) => b.length - 1 - c), // rotate 270°
];

function invert(board: readonly number[]): number[] {
  const inverse = new Array<number>(board.length).fill(0);
  board.forEach((c, r) => (inverse[c] = r));
  return inverse;
}

/**
 * Solutions distinct under rotation and reflection, OEIS A002562, by Burnside's lemma: the
 * number of classes is the average number of boards each symmetry leaves unchanged.
 */
export function uniqueCount(n: number): bigint {
  assertBoard(n, n - 1);
  let fixedTotal = 0;
  for (const board of listBoards(n)) {
    for (const symmetry of SYMMETRIES) {
      if (sameBoard(symmetry(board), board)) fixedTotal++;
    }
  }
  return BigInt(fixedTotal / SYMMETRIES.length);
}

function sameBoard(a: readonly number[], b: readonly number[]): boolean {
  return a.every((c, r) => c === b[r]);
}

/** One board as text: a row per line, `Q` for the queen and `.` elsewhere. */
export function formatBoard(board: readonly number[]): string {
  return board.map((c) => Array.from(board, (_, k) => (k === c ? 'Q' : '.')).join(' ')).join('\n');
}
