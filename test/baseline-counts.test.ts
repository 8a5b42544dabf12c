// The baseline's N(n, D) table the end-to-end tests expect, held against every published value.
import { describe, expect, it } from 'vitest';
import { KNOWN_S, knownSum, knownValue } from '@weak-queens/shared/contracts';
import { baselineCounts, baselineN } from './src/index.js';

describe("when the end-to-end tests take N(n, D) from the C++ baseline's table", () => {
  it('sums to the reference S(n) for n = 1..14, S(4), S(5) and S(14) published', () => {
    for (let n = 1; n <= 14; n++) {
      const sum = baselineCounts(n).reduce((s, v) => s + BigInt(v), 0n);
      expect(sum.toString()).toBe(KNOWN_S[n - 1]);
    }
    expect([4, 5, 14].map((n) => knownSum(n)?.source)).toEqual([
      'PROBLEM.md',
      'PROBLEM.md',
      'PROBLEM.md',
    ]);
  });

  it("agrees with n^n, OEIS A000170, N(n, 1)'s recurrence and the worked example N(4, ·) = 256, 16, 2, 2", () => {
    let checked = 0;
    for (let n = 1; n <= 14; n++) {
      for (let depth = 0; depth < n; depth++) {
        const known = knownValue(n, depth);
        if (!known) continue;
        expect(baselineN(n, depth)).toBe(known.value);
        checked++;
      }
    }
    // D = 0 for 14 sizes, D = n − 1 for 13 more, N(4, 1) and N(4, 2) from the worked example,
    // and N(n, 1) by its recurrence for n = 3 and 5..14 (11 more).
    expect(checked).toBe(40);
    expect(baselineCounts(4)).toEqual(['256', '16', '2', '2']);
  });

  it('refuses a size it does not hold, naming what it holds', () => {
    expect(() => baselineN(15, 3)).toThrow(
      'n, depth: no baseline N(15, 3); it holds n = 1..14, D = 0..n − 1',
    );
  });
});
