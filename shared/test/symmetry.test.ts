import { describe, expect, it } from 'vitest';
import {
  assertLegalUnit,
  centreRows,
  countCompletions,
  estimateBytes,
  estimateCost,
  planUnits,
  topUnits,
  unitWeight,
} from '../src/kernel/index.js';
import { InvalidInputError } from '../src/contracts/index.js';
import { bruteForceCount, bruteForceMiddleCount } from './oracle.js';

/** Every legal placement of k consecutive rows, by direct comparison (independent of the kernel). */
function blocks(n: number, depth: number, k: number): number[][] {
  const out: number[][] = [];
  const place = (rows: number[]): void => {
    if (rows.length === k) {
      out.push(rows);
      return;
    }
    for (let c = 0; c < n; c++) {
      const legal = rows.every((a, j) => {
        const d = rows.length - j;
        return d > depth || (a !== c && Math.abs(a - c) !== d);
      });
      if (legal) place([...rows, c]);
    }
  };
  place([]);
  return out;
}

/** The block's images under the row reversal F, the mirror M and MF, itself included. */
function orbit(n: number, block: readonly number[]): string[] {
  const mirrored = block.map((c) => n - 1 - c);
  const images = [[...block], [...block].reverse(), mirrored, [...mirrored].reverse()];
  return [...new Set(images.map((image) => image.join(',')))];
}

describe('when the central block is reduced by the mirror and the row reversal', () => {
  it('weighs exactly one member of every orbit, by the orbit size', () => {
    for (let n = 4; n <= 9; n++) {
      for (let d = 1; d < n; d++) {
        const all = blocks(n, d, centreRows(n));
        const seen = new Set<string>();
        for (const block of all) {
          const members = orbit(n, block);
          if (seen.has(members[0] ?? '')) continue;
          members.forEach((m) => seen.add(m));
          const weights = members.map((m) => unitWeight(n, d, [], m.split(',').map(Number)));
          expect(weights.filter((w) => w !== 0)).toEqual([members.length]);
        }
        expect(topUnits(n, d).length).toBe(all.filter((b) => unitWeight(n, d, [], b) !== 0).length);
      }
    }
  });

  it.each([
    [4, 1],
    [5, 2],
    [6, 5],
    [7, 3],
    [8, 6],
  ])('adds up to N(%i, %i) by plain enumeration with each canonical block fixed', (n, d) => {
    let total = 0;
    for (const unit of topUnits(n, d))
      total += unit.weight * bruteForceMiddleCount(n, d, unit.middle);
    expect(total).toBe(bruteForceCount(n, d));
  });

  it('keeps the mirror halves where there is no block to reduce (D = 0, n < 4)', () => {
    expect(topUnits(8, 0).map((u) => [u.prefix, u.weight])).toEqual([
      [[0], 2],
      [[1], 2],
      [[2], 2],
      [[3], 2],
    ]);
    expect(topUnits(3, 2).map((u) => [u.prefix, u.weight])).toEqual([
      [[0], 2],
      [[1], 1],
    ]);
  });
});

describe('when a worker checks the weight of a unit it was sent', () => {
  it('gives planned units, split or not, their weight', () => {
    // n = 8: the block is rows 3 and 4; [0, 2] is the smallest of {[0,2], [2,0], [7,5], [5,7]}.
    expect(unitWeight(8, 5, [], [0, 2])).toBe(4);
    expect(unitWeight(8, 5, [], [0, 2, 5])).toBe(4);
    expect(unitWeight(8, 5, [], [2, 5])).toBe(2); // M·F fixes it: [2, 5] reversed and mirrored
    expect(unitWeight(7, 6, [], [1, 3, 5])).toBe(2); // F·M again: the reversed mirror is itself
    expect(unitWeight(8, 0, [3], [])).toBe(2);
    expect(unitWeight(7, 0, [3, 0], [])).toBe(1);
    expect(unitWeight(8, 5, [], [])).toBe(1); // the whole (n, D), as the dynamic programs plan it
  });

  it('refuses forged units: other members of an orbit, other shapes, illegal rows', () => {
    for (const block of [
      [2, 0],
      [7, 5],
      [5, 7],
    ]) {
      expect(unitWeight(8, 5, [], block)).toBe(0);
      expect(unitWeight(8, 5, [], [...block, 1])).toBe(0);
    }
    expect(unitWeight(8, 5, [0], [])).toBe(0); // a mirror-half unit where the block scheme applies
    expect(unitWeight(8, 5, [], [0])).toBe(0); // shorter than the block
    expect(unitWeight(8, 5, [0, 2], [0, 2])).toBe(0); // a prefix and a middle
    expect(unitWeight(8, 5, [], [0, 2, 4, 6, 1, 3])).toBe(0); // leaves the board
    expect(unitWeight(8, 5, [], [0, 1])).toBe(0); // row 4 attacked by row 3
    expect(unitWeight(8, 5, [], [0, 8])).toBe(0); // column off the board
    expect(unitWeight(8, 5, [], [0.5, 2])).toBe(0);
    expect(unitWeight(8, 0, [4], [])).toBe(0); // right half under the mirror scheme
    expect(unitWeight(8, 0, [], [0, 2])).toBe(0); // a middle under the mirror scheme
    expect(() => unitWeight(8, 8, [], [0, 2])).toThrow(InvalidInputError);
  });

  it('says which fixed rows attack each other', () => {
    expect(() => assertLegalUnit(8, 5, [], [0, 1])).toThrow(
      'middle: [0,1] is not allowed; expected a legal placement (row 4 is attacked)',
    );
    expect(() => assertLegalUnit(8, 5, [0, 2, 4, 6], [1, 3])).toThrow(
      'expected at most 5 columns from row 3 down, below the prefix',
    );
    expect(() => assertLegalUnit(8, 5, [1], [0, 2])).not.toThrow();
  });
});

describe('when a unit fixes middle rows', () => {
  it('is counted by the DFS only', () => {
    expect(() => countCompletions('window-transfer', 8, 5, [], undefined, [0, 2])).toThrow(
      InvalidInputError,
    );
    expect(() => estimateCost('seed-dp', 8, 5, [], [0, 2])).toThrow(InvalidInputError);
  });

  it('estimates the whole (n, D) as the sum of its top-level units', () => {
    const whole = estimateCost('dfs', 12, 8, []).seconds;
    const units = planUnits(12, 8, { algorithm: 'dfs' });
    const sum = units.reduce((s, u) => s + u.estimate.seconds, 0);
    expect(whole).toBeCloseTo(sum, 12);
    expect(whole).toBeGreaterThan(0);
  });

  it('says the same peak bytes without estimating the time', () => {
    for (const algorithm of ['dfs', 'window-transfer', 'seed-dp'] as const) {
      for (const [n, depth] of [
        [9, 0],
        [11, 6],
        [12, 8],
      ] as const) {
        expect(estimateBytes(algorithm, n, depth, [])).toBe(
          estimateCost(algorithm, n, depth, []).bytes,
        );
      }
    }
    expect(estimateBytes('dfs', 11, 6, [], [1, 3, 5])).toBe(
      estimateCost('dfs', 11, 6, [], [1, 3, 5]).bytes,
    );
    expect(() => estimateBytes('dfs', 8, 8, [])).toThrow(InvalidInputError);
  });

  it('refuses a prefix and a middle together (one run of fixed rows per unit)', () => {
    expect(() => countCompletions('dfs', 8, 4, [1], undefined, [0, 2])).toThrow(
      'middle: [0,2] is not allowed; expected no middle rows together with a prefix',
    );
  });
});
