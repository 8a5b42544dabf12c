// The classic family: ordinary n-queens is D = n−1. Counts, classes under the board's eight
// symmetries, and the boards themselves as a lazy stream.
import { assertBoard, blockedInRow, fullMask } from './board.js';
import { classicTotals } from './classic-units.js';

/**
 * Q(n) = N(n, n−1), OEIS A000170, from the classic units (classic-units.ts), the same units
 * the pipeline counts; `countPlacements(n, n − 1)` (the weak kernel) stays an independent check.
 */
export function classicCount(n: number): bigint {
  assertBoard(n, n - 1);
  return classicTotals(n).boards;
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

/** Solutions distinct under rotation and reflection, OEIS A002562, from the classic units. */
export function uniqueCount(n: number): bigint {
  assertBoard(n, n - 1);
  return classicTotals(n).classes;
}

/** One board as text: a row per line, `Q` for the queen and `.` elsewhere. */
export function formatBoard(board: readonly number[]): string {
  return board.map((c) => Array.from(board, (_, k) => (k === c ? 'Q' : '.')).join(' ')).join('\n');
}
