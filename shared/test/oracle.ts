// An independent oracle for the tests: plain enumeration, row by row, checking each new queen
// against every earlier queen within distance D by direct comparison (no bitmasks, no states).
// `fixed[r]`, where given, is the only column row r may take.
import { middleStart } from '../src/kernel/index.js';

export function bruteForceCount(
  n: number,
  depth: number,
  fixed: readonly (number | undefined)[] = [],
): number {
  const columns: number[] = [];
  const place = (row: number): number => {
    if (row === n) return 1;
    let total = 0;
    for (let c = 0; c < n; c++) {
      if (fixed[row] !== undefined && fixed[row] !== c) continue;
      let legal = true;
      for (let d = 1; d <= depth && d <= row; d++) {
        const a = columns[row - d] as number;
        if (a === c || a + d === c || a - d === c) legal = false;
      }
      if (legal) {
        columns.push(c);
        total += place(row + 1);
        columns.pop();
      }
    }
    return total;
  };
  return place(0);
}

/** The same enumeration with a unit's middle rows fixed (they start at row middleStart(n)). */
export function bruteForceMiddleCount(n: number, depth: number, middle: readonly number[]): number {
  const fixed: number[] = [];
  middle.forEach((c, i) => (fixed[middleStart(n) + i] = c));
  return bruteForceCount(n, depth, fixed);
}

/** N(n, 1) by BigInt powers of the one-column transfer matrix: c' ∉ {c−1, c, c+1}. */
export function depthOneCount(n: number): bigint {
  let vector: bigint[] = new Array<bigint>(n).fill(1n);
  for (let row = 1; row < n; row++) {
    vector = vector.map((_, c) =>
      vector.reduce((sum, v, a) => (Math.abs(a - c) <= 1 ? sum : sum + v), 0n),
    );
  }
  return vector.reduce((a, b) => a + b, 0n);
}
