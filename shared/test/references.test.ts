// The one list of reference values: what it holds, and where each value comes from.
import { describe, expect, it } from 'vitest';
import { classicCount, uniqueCount } from '../src/kernel/index.js';
import {
  CLASSIC_QUEENS,
  KNOWN_S,
  knownSum,
  knownSums,
  knownValue,
  UNIQUE_QUEENS,
} from '../src/contracts/index.js';

describe('when a count has a published value', () => {
  it('knows N(n, 0) = n^n and N(n, n-1) from OEIS A000170 up to n = 27', () => {
    expect(knownValue(5, 0)).toEqual({ value: '3125', source: 'n^n' });
    expect(knownValue(20, 0)?.value).toBe('104857600000000000000000000');
    expect(knownValue(14, 13)).toEqual({ value: '365596', source: 'OEIS A000170' });
    expect(knownValue(27, 26)?.value).toBe('234907967154122528');
    expect(knownValue(1, 0)?.value).toBe('1');
    expect(knownValue(5, 2)).toBeUndefined();
    expect(knownValue(5, 1)).toEqual({ value: '184', source: 'N(n, 1) recurrence' });
    expect(knownValue(28, 27)).toBeUndefined();
    expect(CLASSIC_QUEENS).toHaveLength(27);
  });

  it("knows N(4, 1) = 16 and N(4, 2) = 2 from PROBLEM.md's worked example", () => {
    expect(knownValue(4, 1)).toEqual({ value: '16', source: 'PROBLEM.md' });
    expect(knownValue(4, 2)).toEqual({ value: '2', source: 'PROBLEM.md' });
    expect([0, 1, 2, 3].map((d) => knownValue(4, d)?.value)).toEqual(['256', '16', '2', '2']);
  });

  it('knows N(n, 1) by its own recurrence, as many as a brute-force count finds', () => {
    // Every sequence of n columns whose neighbours differ by 2 or more, counted one by one.
    const brute = (n: number): string => {
      let count = 0;
      const grow = (row: number, last: number): void => {
        if (row === n) {
          count++;
          return;
        }
        for (let c = 0; c < n; c++) if (row === 0 || Math.abs(c - last) >= 2) grow(row + 1, c);
      };
      grow(0, -1);
      return String(count);
    };
    for (let n = 3; n <= 8; n++) {
      expect(knownValue(n, 1)?.value).toBe(brute(n));
      if (n !== 4) expect(knownValue(n, 1)?.source).toBe('N(n, 1) recurrence');
    }
  });

  it('knows S(1..17), and says where each comes from', () => {
    expect(KNOWN_S).toHaveLength(17);
    expect(knownSum(4)).toEqual({ value: '276', source: 'PROBLEM.md' });
    expect(knownSum(5)).toEqual({ value: '3347', source: 'PROBLEM.md' });
    expect(knownSum(14)).toEqual({ value: '11726115562784664', source: 'PROBLEM.md' });
    expect(knownSum(13)).toEqual({ value: '319705972380085', source: 'baseline/seed-dp.cpp' });
    expect(knownSum(16)).toEqual({
      value: '19457615917571941524',
      source: 'baseline/peer-tm-dfs.cpp',
    });
    expect(knownSum(17)).toEqual({
      value: '872422300284719124995',
      source: 'baseline/peer-tm-dfs.cpp',
    });
    expect(knownSum(18)).toBeUndefined();
    expect(knownSums([5, 14])).toEqual(
      new Map([
        [5, '3347'],
        [14, '11726115562784664'],
      ]),
    );
    expect(() => knownSums([18])).toThrow('n: no reference S(18); KNOWN_S holds n = 1..17');
  });

  it('agrees with the kernel where the kernel is quick', () => {
    for (let n = 1; n <= 11; n++) expect(classicCount(n).toString()).toBe(CLASSIC_QUEENS[n - 1]);
    expect(UNIQUE_QUEENS).toHaveLength(23);
    // Every class holds 1, 2, 4 or 8 boards: Q(n)/8 ≤ unique ≤ Q(n) for each published pair.
    UNIQUE_QUEENS.forEach((unique, i) => {
      const q = BigInt(CLASSIC_QUEENS[i]!);
      expect(8n * BigInt(unique)).toBeGreaterThanOrEqual(q);
      expect(BigInt(unique)).toBeLessThanOrEqual(q);
    });
    for (let n = 1; n <= 10; n++) expect(uniqueCount(n).toString()).toBe(UNIQUE_QUEENS[n - 1]);
  });
});
