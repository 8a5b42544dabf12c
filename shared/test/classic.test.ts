import { describe, expect, it } from 'vitest';
import { classicCount, formatBoard, listBoards, uniqueCount } from '../src/kernel/index.js';
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '../src/contracts/index.js';

// OEIS A000170 and A002562 from n = 1, as far as the kernel counts them quickly.
const A000170 = CLASSIC_QUEENS.slice(0, 14).map(BigInt);
const A002562 = UNIQUE_QUEENS.slice(0, 12).map(BigInt);

describe('when counting ordinary n-queens', () => {
  it('matches OEIS A000170 up to n = 14', () => {
    A000170.forEach((q, i) => expect(classicCount(i + 1)).toBe(q));
  });

  it('matches OEIS A002562 (distinct under the 8 symmetries) up to n = 12', () => {
    A002562.forEach((u, i) => expect(uniqueCount(i + 1)).toBe(u));
  });
});

describe('when listing boards', () => {
  it('gives exactly 1,3,0,2 and 2,0,3,1 for n = 4', () => {
    expect([...listBoards(4)]).toEqual([
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]);
  });

  it('lists as many boards as it counts, lazily', () => {
    expect(BigInt([...listBoards(8)].length)).toBe(classicCount(8));
    const first = listBoards(20).next();
    expect(first.value).toEqual([
      0, 2, 4, 1, 3, 12, 14, 11, 17, 19, 16, 8, 15, 18, 7, 9, 6, 13, 5, 10,
    ]);
  });

  it('draws a board as text', () => {
    expect(formatBoard([1, 3, 0, 2])).toBe('. Q . .\n. . . Q\nQ . . .\n. . Q .');
  });
});
