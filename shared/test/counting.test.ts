import { describe, expect, it } from 'vitest';
import {
  ALGORITHMS,
  countCompletions,
  countPlacements,
  countUnit,
  estimateCost,
  planUnits,
  unitWeight,
} from '../src/kernel/index.js';
import { InvalidInputError, KNOWN_S } from '../src/contracts/index.js';
import { bruteForceCount, bruteForceMiddleCount, depthOneCount } from './oracle.js';

const sum = (values: bigint[]): bigint => values.reduce((a, b) => a + b, 0n);
const everyD = (n: number): number[] => Array.from({ length: n }, (_, d) => d);
const estimate = { seconds: 0, bytes: 0 };

describe('when every algorithm counts small boards', () => {
  for (const algorithm of ALGORITHMS) {
    it(`${algorithm} matches plain enumeration for every D at n ≤ 8`, () => {
      for (let n = 1; n <= 8; n++) {
        for (const d of everyD(n)) {
          expect(countPlacements(n, d, { algorithm })).toBe(BigInt(bruteForceCount(n, d)));
        }
      }
    });
  }
});

describe('when the algorithms cross-check each other up to n = 12', () => {
  it('the two dynamic programs agree for every D', () => {
    for (let n = 9; n <= 12; n++) {
      for (const d of everyD(n)) {
        expect(countPlacements(n, d, { algorithm: 'window-transfer' })).toBe(
          countPlacements(n, d, { algorithm: 'seed-dp' }),
        );
      }
    }
  });

  it('the depth-first search agrees wherever it finishes within a few seconds', () => {
    let checked = 0;
    for (let n = 9; n <= 13; n++) {
      for (const d of everyD(n)) {
        if (estimateCost('dfs', n, d, []).seconds > 2) continue; // n^n leaves at D = 0 …
        expect(countPlacements(n, d, { algorithm: 'dfs' })).toBe(
          countPlacements(n, d, { algorithm: 'window-transfer' }),
        );
        checked++;
      }
    }
    // Every D from 3 upward at n = 9..12 and from 5 at n = 13 qualifies today; dropping below
    // this means a slowdown.
    expect(checked).toBeGreaterThanOrEqual(38);
  });
});

describe('when checked against published values', () => {
  it('gives N(4, ·) = 256, 16, 2, 2 and S(4) = 276', () => {
    const values = everyD(4).map((d) => countPlacements(4, d));
    expect(values).toEqual([256n, 16n, 2n, 2n]);
    expect(sum(values)).toBe(276n);
  });

  it('gives S(5) = 3347 and S(1..11)', () => {
    for (let n = 1; n <= 11; n++) {
      expect(sum(everyD(n).map((d) => countPlacements(n, d)))).toBe(BigInt(KNOWN_S[n - 1]!));
    }
  });

  it('gives S(14) = 11726115562784664, the size the source document targets', () => {
    expect(KNOWN_S[13]).toBe('11726115562784664');
    expect(sum(everyD(14).map((d) => countPlacements(14, d)))).toBe(BigInt(KNOWN_S[13]!));
  });

  it('gives S(15) = 461983502794813419 (the transfer up to D = 9, the search beyond)', () => {
    expect(KNOWN_S[14]).toBe('461983502794813419');
    expect(sum(everyD(15).map((d) => countPlacements(15, d)))).toBe(BigInt(KNOWN_S[14]!));
  }, 300_000);

  it('gives N(16, 8) = 116404806684 with the transfer meeting in the middle', () => {
    expect(countPlacements(16, 8, { algorithm: 'window-transfer' })).toBe(116404806684n);
  });
});

describe('when counts pass 2^53 and 2^64', () => {
  it('gives N(16, 0) = 2^64 exactly', () => {
    for (const algorithm of ['seed-dp', 'window-transfer'] as const) {
      expect(countPlacements(16, 0, { algorithm })).toBe(2n ** 64n);
    }
  });

  it('keeps N(n, 1) exact past 2^64, in doubles and through the residue arithmetic', () => {
    // n = 24: 23^12 passes 2^52, so the transfer counts modulo primes; odd n has a one-column
    // window that is its own mirror image.
    for (const n of [14, 15, 16, 17, 20, 24, 25]) {
      const expected = depthOneCount(n);
      expect(countPlacements(n, 1, { algorithm: 'window-transfer' })).toBe(expected);
      if (n <= 20) expect(countPlacements(n, 1, { algorithm: 'seed-dp' })).toBe(expected);
    }
    expect(depthOneCount(16) > 2n ** 53n).toBe(true);
    expect(depthOneCount(20) > 2n ** 64n).toBe(true);
  });

  // Each half's counts stay below 2^52, their dot product does not.
  it.each([
    [15, 2],
    [16, 3],
    [16, 4],
    [24, 3],
  ])(
    'agrees between the dynamic programs where the halves meet in doubles past 2^53: N(%i, %i)',
    (n, d) => {
      expect(countPlacements(n, d, { algorithm: 'window-transfer' })).toBe(
        countPlacements(n, d, { algorithm: 'seed-dp' }),
      );
    },
  );

  it('agrees between the dynamic programs where the transfer needs residues', () => {
    // 24^12 passes 2^52 at (26, 2); with a prefix every row is stepped: 18^18 at (20, 2).
    expect(countPlacements(26, 2, { algorithm: 'window-transfer' })).toBe(
      countPlacements(26, 2, { algorithm: 'seed-dp' }),
    );
    for (const prefix of [[1, 4], [0], [9, 3, 17]]) {
      expect(countCompletions('window-transfer', 20, 2, prefix)).toBe(
        countCompletions('seed-dp', 20, 2, prefix),
      );
    }
  });
});

describe('when one (n, D) is split into work units', () => {
  it.each([
    [8, 3],
    [9, 5],
    [10, 4],
    [10, 9],
    [11, 6],
    [12, 8],
    [12, 11],
    [13, 12],
  ])('the units add up to N(%i, %i) at every split depth', (n, d) => {
    const whole = countPlacements(n, d, { algorithm: 'window-transfer' });
    for (const targetSeconds of [Infinity, 1e-4, 1e-6]) {
      const units = planUnits(n, d, { algorithm: 'dfs', targetSeconds });
      expect(sum(units.map((u) => countUnit(u)))).toBe(whole);
    }
  });

  it('splits deeper as the target shrinks, and never beyond maxUnits', () => {
    const coarse = planUnits(12, 9, { algorithm: 'dfs', targetSeconds: 1e-2 });
    const fine = planUnits(12, 9, { algorithm: 'dfs', targetSeconds: 1e-4 });
    expect(fine.length).toBeGreaterThan(coarse.length);
    expect(
      planUnits(12, 9, { algorithm: 'dfs', targetSeconds: 1e-9, maxUnits: 50 }).length,
    ).toBeLessThanOrEqual(50);
  });

  it('counts a unit with a prefix the same way with every algorithm', () => {
    // Prefix units by hand (the DFS plans middle runs, which only it counts).
    const [n, d] = [9, 4];
    const prefixes: number[][] = [];
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) if (Math.abs(a - b) > 1) prefixes.push([a, b]);
    let total = 0n;
    for (const prefix of prefixes) {
      const values = ALGORITHMS.map((algorithm) =>
        countUnit({ n, depth: d, algorithm, prefix, middle: [], weight: 1, estimate }),
      );
      expect(new Set(values).size).toBe(1);
      total += values[0] ?? 0n;
    }
    expect(total).toBe(BigInt(bruteForceCount(n, d)));
  });

  it.each([
    [8, 3],
    [9, 8],
    [12, 6],
    [13, 12],
  ])('gives every planned unit of N(%i, %i) the weight unitWeight gives its rows', (n, d) => {
    for (const targetSeconds of [Infinity, 1e-4, 1e-5]) {
      for (const unit of planUnits(n, d, { algorithm: 'dfs', targetSeconds })) {
        expect(unitWeight(n, d, unit.prefix, unit.middle)).toBe(unit.weight);
      }
    }
  });

  it.each([
    [6, 2],
    [7, 4],
    [8, 5],
    [8, 7],
  ])(
    'counts a middle unit of N(%i, %i) as plain enumeration with those rows fixed does',
    (n, d) => {
      for (const unit of planUnits(n, d, { algorithm: 'dfs', targetSeconds: 1e-6 }).slice(0, 40)) {
        expect(countCompletions('dfs', n, d, [], undefined, unit.middle)).toBe(
          BigInt(bruteForceMiddleCount(n, d, unit.middle)),
        );
      }
    },
  );
});

describe('when the input is out of range', () => {
  it('rejects n and D with errors that say what is allowed', () => {
    expect(() => countPlacements(0, 0)).toThrow(InvalidInputError);
    expect(() => countPlacements(33, 0)).toThrow(
      'n: 33 is not allowed; expected an integer from 1 to 32',
    );
    expect(() => countPlacements(5, 5)).toThrow(
      'D: 5 is not allowed; expected an integer from 0 to n-1 = 4',
    );
    expect(() => countPlacements(5, 1.5)).toThrow(InvalidInputError);
    expect(() => countUnit({ ...planUnits(6, 3)[0]!, prefix: [0, 0] })).toThrow(
      'row 1 is attacked',
    );
  });
});

describe('when a computation reports progress', () => {
  for (const algorithm of ALGORITHMS) {
    it(`${algorithm} reports rising fractions that end at 1`, () => {
      const seen: number[] = [];
      countPlacements(9, 5, { algorithm, onProgress: (f) => seen.push(f) });
      expect(seen.length).toBeGreaterThan(1);
      expect(
        seen.every(
          (f, i) => f >= 0 && f <= 1 + 1e-9 && (i === 0 || f >= (seen[i - 1] ?? 0) - 1e-9),
        ),
      ).toBe(true);
      expect(seen.at(-1)).toBeCloseTo(1, 9);
    });
  }
});

describe('when the window transfer counts from fixed first rows', () => {
  // Some first rows are longer than a window.
  it.each([
    [11, 4, 1],
    [11, 6, 2],
    [13, 3, 1],
    [10, 2, 3],
    [9, 1, 2],
  ])('adds up to N(%i, %i) over every legal %i first rows', (n, d, rows) => {
    const prefixes = legalPrefixes(n, d, rows);
    const total = sum(prefixes.map((p) => countCompletions('window-transfer', n, d, p)));
    expect(total).toBe(countPlacements(n, d, { algorithm: 'seed-dp' }));
  });
});

function legalPrefixes(n: number, depth: number, rows: number): number[][] {
  if (rows === 0) return [[]];
  return legalPrefixes(n, depth, rows - 1).flatMap((p) =>
    Array.from({ length: n }, (_, c) => [...p, c]).filter((q) =>
      q.every((c, r) =>
        q.slice(Math.max(0, r - depth), r).every((a, i) => {
          const distance = r - (Math.max(0, r - depth) + i);
          return a !== c && Math.abs(a - c) !== distance;
        }),
      ),
    ),
  );
}
