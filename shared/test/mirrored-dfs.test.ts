// A second count by the DFS searches the left–right mirror images of the first count's units:
// every fixed column c as n − 1 − c, so every mask of every search differs from the first's,
// and each unit's count, and their weighted sum, is the same.
import { describe, expect, it } from 'vitest';
import { countByWindowTransfer, countCompletions, planUnits } from '../src/kernel/index.js';
import { countUnit } from '../src/kernel/plan.js';

/** N(n, D) by another algorithm than the DFS. */
const oracleCount = (n: number, depth: number): bigint => countByWindowTransfer(n, depth, []);

describe('when the DFS counts the mirror images of its units', () => {
  it('counts every whole N(n, D) as the transfer does, n = 1 … 11', () => {
    for (let n = 1; n <= 11; n++) {
      for (let depth = 0; depth < n; depth++) {
        const mirrored = countCompletions('dfs', n, depth, [], undefined, [], undefined, 0, true);
        expect([n, depth, mirrored]).toEqual([n, depth, oracleCount(n, depth)]);
      }
    }
  });

  it('counts each split unit as its own image does, and the units add up to N(n, D)', () => {
    for (const [n, depth] of [
      [11, 6],
      [12, 9],
      [13, 8],
    ] as const) {
      const units = planUnits(n, depth, {
        algorithm: 'dfs',
        targetSeconds: 0.0005,
        wholeDfs: false,
      });
      expect(units.length).toBeGreaterThan(20);
      let total = 0n;
      for (const unit of units) {
        const image = countUnit({ ...unit, mirrored: true });
        expect(image).toBe(countUnit(unit));
        total += image;
      }
      expect([n, depth, total]).toEqual([n, depth, oracleCount(n, depth)]);
    }
  });

  it('refuses a mirror image for the dynamic programs, and names a bad unit as given', () => {
    expect(() =>
      countCompletions('window-transfer', 8, 3, [], undefined, [], undefined, 0, true),
    ).toThrow(/mirrored.*dfs only/);
    expect(() => countCompletions('dfs', 8, 3, [9], undefined, [], undefined, 0, true)).toThrow(
      /\[9\]/,
    );
  });
});
