import { describe, expect, it } from 'vitest';
import { parseNSpec } from '../src/contracts/index.js';

describe('when parsing board sizes', () => {
  it('reads single sizes, ranges and lists', () => {
    expect(parseNSpec('14')).toEqual([14]);
    expect(parseNSpec('4-6')).toEqual([4, 5, 6]);
    expect(parseNSpec('4,6,10-12')).toEqual([4, 6, 10, 11, 12]);
    expect(parseNSpec('6,4-6')).toEqual([4, 5, 6]);
  });

  it('rejects what is not allowed, saying what is', () => {
    for (const bad of ['0', 'abc', '40', '5-3', '', '4,', '1-33', '-3']) {
      expect(() => parseNSpec(bad)).toThrow(/expected sizes from 1 to 32/);
    }
  });
});
