// The published values every S(n) is checked against.
import { describe, expect, it } from 'vitest';
import { classicCount } from '../src/kernel/index.js';
import { CLASSIC_QUEENS, knownValue } from '../src/contracts/index.js';

describe('when a count has a published value', () => {
  it('knows N(n, 0) = n^n and N(n, n-1) from OEIS A000170 up to n = 27', () => {
    expect(knownValue(5, 0)).toEqual({ value: '3125', source: 'n^n' });
    expect(knownValue(20, 0)?.value).toBe('104857600000000000000000000');
    expect(knownValue(14, 13)).toEqual({ value: '365596', source: 'OEIS A000170' });
    expect(knownValue(27, 26)?.value).toBe('234907967154122528');
    expect(knownValue(1, 0)?.value).toBe('1');
    expect(knownValue(5, 2)).toBeUndefined();
    expect(knownValue(28, 27)).toBeUndefined();
    expect(CLASSIC_QUEENS).toHaveLength(27);
  });

  it('agrees with the kernel where the kernel is quick', () => {
    for (let n = 1; n <= 11; n++) expect(classicCount(n).toString()).toBe(CLASSIC_QUEENS[n - 1]);
  });
});
