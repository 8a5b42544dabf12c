// A whole (n, D)'s window transfer split into parts (each pairs one run of the trie's last
// level): the parts add up to N(n, D), alone and on a team of threads, whatever the arithmetic,
// and with the self-mirrored middle window counted once. The team comes from the build (its
// threads load built files), the single-threaded count from the sources.
import { describe, expect, it } from 'vitest';
import { countByWindowTransferParallel } from '../dist/kernel/index.js';
import {
  countByDfs,
  countByWindowTransfer,
  countCompletions,
  planUnits,
  type TransferPart,
} from '../src/kernel/index.js';
import { parseUnitJobData, parseUnitKey, unitKey } from '../src/contracts/index.js';

const partsOf = (of: number): TransferPart[] =>
  Array.from({ length: of }, (_, index) => ({ index, of }));

/** (n, D) with what each exercises. */
const CASES = [
  { n: 9, depth: 1, why: 'odd window count: the middle window is its own mirror image' },
  { n: 10, depth: 4, why: 'an even number of rows: counts in 16 bits paired with themselves' },
  { n: 11, depth: 4, why: 'an odd number of rows: two different vectors paired' },
  { n: 13, depth: 3, why: 'counts in doubles' },
  { n: 25, depth: 1, why: 'counts in residues, and an odd window count' },
];

describe('when a whole (n, D) is counted as transfer parts', () => {
  for (const { n, depth, why } of CASES) {
    it(`adds up to N(${n}, ${depth}) in 2, 3 and 5 parts (${why})`, () => {
      const whole = countByWindowTransfer(n, depth, []);
      if (n <= 11) expect(whole).toBe(BigInt(countByDfs(n, depth, [])));
      for (const of of [2, 3, 5]) {
        const sum = partsOf(of).reduce(
          (total, part) => total + countByWindowTransfer(n, depth, [], undefined, part),
          0n,
        );
        expect(sum).toBe(whole);
      }
    });
  }

  it('gives each part the same value on a team of 1 to 3 threads as on one', async () => {
    for (const { n, depth } of CASES) {
      for (const part of partsOf(3)) {
        const alone = countByWindowTransfer(n, depth, [], undefined, part);
        const teams = await Promise.all(
          [1, 2, 3].map((threads) =>
            countByWindowTransferParallel(n, depth, [], { threads, part }),
          ),
        );
        expect(teams).toEqual([alone, alone, alone]);
      }
    }
  }, 120_000);

  it('plans them as units whose counts add up, keyed *index/of', () => {
    const units = planUnits(12, 5, { algorithm: 'window-transfer', transferParts: 4 });
    expect(units.map((u) => unitKey(u.prefix, u.middle, u.part))).toEqual([
      '*0/4',
      '*1/4',
      '*2/4',
      '*3/4',
    ]);
    const sum = units.reduce(
      (t, u) =>
        t + countCompletions(u.algorithm, u.n, u.depth, u.prefix, undefined, u.middle, u.part),
      0n,
    );
    expect(sum).toBe(BigInt(countByDfs(12, 5, [])));
    expect(parseUnitKey('*3/4')).toEqual({ prefix: [], middle: [], part: { index: 3, of: 4 } });
    // Each part builds the whole table and steps every row: it is estimated below the whole,
    // but not by much.
    const whole = planUnits(12, 5, { algorithm: 'window-transfer' })[0]!.estimate.seconds;
    for (const u of units) {
      expect(u.estimate.seconds).toBeLessThan(whole);
      expect(u.estimate.seconds).toBeGreaterThan(whole / 2);
    }
  });

  it('refuses a part that is none, a part of a prefix, and a part for another algorithm', () => {
    expect(() => countByWindowTransfer(9, 3, [], undefined, { index: 2, of: 2 })).toThrow(
      'part: "2/2" is not allowed; expected index/of with 0 ≤ index < of and 2 ≤ of ≤ 64',
    );
    expect(() => countByWindowTransfer(9, 3, [1], undefined, { index: 0, of: 2 })).toThrow(
      'part: "0/2" is not allowed; expected only for a whole (n, D)',
    );
    expect(() => countCompletions('dfs', 9, 3, [], undefined, [], { index: 0, of: 2 })).toThrow(
      'part: "0/2" is not allowed; expected no parts with dfs (window-transfer only)',
    );
    const job = {
      sweepId: 's-1',
      n: 9,
      depth: 3,
      algorithm: 'dfs',
      prefix: [],
      part: { index: 0, of: 2 },
      weight: 1,
      planId: 'a1b2c3d4e5f6',
      estimateSeconds: 0.1,
      whole: false,
    };
    expect(() => parseUnitJobData(job)).toThrow(
      'part: "0/2" is not allowed; expected absent unless the algorithm is window-transfer',
    );
    expect(parseUnitJobData({ ...job, algorithm: 'window-transfer' }).part).toEqual({
      index: 0,
      of: 2,
    });
  });
});
