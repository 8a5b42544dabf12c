// A whole window transfer met at another row than the middle (a verified sweep's second count by
// the transfer): the same N(n, D) from other partial counts, single-threaded and on a team. The
// team's threads load built files, so the parallel kernel comes from the build.
import { describe, expect, it } from 'vitest';
import { countByWindowTransferParallel } from '../dist/kernel/index.js';
import { countByDfs, countByWindowTransfer } from '../src/kernel/index.js';
import { transferShape } from '../src/kernel/window-transfer.js';

const everyD = (n: number): number[] => Array.from({ length: n - 1 }, (_, d) => d + 1);

describe('when a whole transfer meets past the middle row', () => {
  it('pairs other vectors: a longer one with a shorter one, as far as the board allows', () => {
    // N(18, 10): 8 rows after the first window, met at 4 + 4; shifted by one, 5 + 3.
    expect(transferShape(18, 10, 0)).toMatchObject({ steps: 4, pairedSteps: 4 });
    expect(transferShape(18, 10, 0, 1)).toMatchObject({ steps: 5, pairedSteps: 3 });
    // N(17, 9): 8 rows; N(17, 8): 9 rows, met at 5 + 4, shifted 6 + 3.
    expect(transferShape(17, 8, 0)).toMatchObject({ steps: 5, pairedSteps: 4 });
    expect(transferShape(17, 8, 0, 1)).toMatchObject({ steps: 6, pairedSteps: 3 });
    // Never past the last row: all the steps on one side, the windows alone on the other.
    expect(transferShape(9, 7, 0, 5)).toMatchObject({ steps: 2, pairedSteps: 0 });
    // A prefix steps every row: no meeting to shift.
    expect(transferShape(12, 5, 2, 1)).toMatchObject({ steps: 7, pairedSteps: 0 });
  });

  for (const n of [7, 10, 11]) {
    it(`gives the middle meeting's count and the DFS's for every D and shift at n = ${n}`, () => {
      for (const depth of everyD(n)) {
        const middle = countByWindowTransfer(n, depth, []);
        // The DFS without symmetry is slow at small D for n = 11: n ≤ 10 suffices for it.
        if (n <= 10) expect(middle).toBe(BigInt(countByDfs(n, depth, [])));
        for (const shift of [1, 2, 3, n]) {
          expect([
            depth,
            shift,
            countByWindowTransfer(n, depth, [], undefined, undefined, shift),
          ]).toEqual([depth, shift, middle]);
        }
      }
    });
  }

  it('stays exact in doubles and in residues, met past the middle', () => {
    // N(20, 5) steps in doubles; N(24, 1) in residues, with the self-mirrored window at n = 25.
    for (const [n, depth] of [
      [20, 5],
      [24, 1],
      [25, 1],
    ] as const) {
      const middle = countByWindowTransfer(n, depth, []);
      expect(countByWindowTransfer(n, depth, [], undefined, undefined, 1)).toBe(middle);
      expect(countByWindowTransfer(n, depth, [], undefined, undefined, 2)).toBe(middle);
    }
  });

  it('gives the same count on a team of threads as on one', async () => {
    for (const [n, depth] of [
      [12, 5],
      [13, 6],
      [13, 4],
      [25, 1],
    ] as const) {
      const middle = countByWindowTransfer(n, depth, []);
      for (const threads of [2, 3]) {
        for (const meetShift of [1, 2]) {
          expect(await countByWindowTransferParallel(n, depth, [], { threads, meetShift })).toBe(
            middle,
          );
        }
      }
    }
  }, 300_000);
});
