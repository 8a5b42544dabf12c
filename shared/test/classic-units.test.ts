import { describe, expect, it } from 'vitest';
import {
  CLASSIC_ENGINES,
  classicTotals,
  classicUnitKey,
  classicUnits,
  classicWasm,
  countClassicUnit,
  parseClassicUnitKey,
} from '../src/kernel/index.js';
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '../src/contracts/index.js';

/**
 * The oracle: every board by plain enumeration (direct comparisons, no bitmasks), and its class
 * as the smallest of its 8 images written out as strings, so classes are counted by a set.
 */
function bruteForce(n: number): { boards: number; classes: number } {
  const boards: number[][] = [];
  const columns: number[] = [];
  const place = (row: number): void => {
    if (row === n) {
      boards.push([...columns]);
      return;
    }
    for (let c = 0; c < n; c++) {
      if (columns.some((a, r) => a === c || Math.abs(a - c) === row - r)) continue;
      columns.push(c);
      place(row + 1);
      columns.pop();
    }
  };
  place(0);
  const m = n - 1;
  const cells = (b: number[]): [number, number][] => b.map((c, r) => [r, c]);
  const images = (b: number[]): string[] => {
    const maps: ((r: number, c: number) => [number, number])[] = [
      (r, c) => [r, c],
      (r, c) => [r, m - c],
      (r, c) => [m - r, c],
      (r, c) => [m - r, m - c],
      (r, c) => [c, r],
      (r, c) => [m - c, m - r],
      (r, c) => [c, m - r],
      (r, c) => [m - c, r],
    ];
    return maps.map((f) => {
      const out = new Array<number>(n);
      for (const [r, c] of cells(b)) {
        const [r2, c2] = f(r, c);
        out[r2] = c2;
      }
      return out.join(',');
    });
  };
  const classes = new Set(boards.map((b) => images(b).sort()[0]));
  return { boards: boards.length, classes: classes.size };
}

describe('when counting ordinary queens by canonical boards of units', () => {
  it('agrees with brute force for n = 1 … 8, boards and classes, by both methods', () => {
    for (let n = 1; n <= 8; n++) {
      const oracle = bruteForce(n);
      for (const [method, engine] of [
        ['pruned', 'wasm'],
        ['pruned', 'js'],
        ['images', 'auto'],
      ] as const) {
        const totals = classicTotals(n, method, engine);
        expect([n, method, engine, totals.boards, totals.classes]).toEqual([
          n,
          method,
          engine,
          BigInt(oracle.boards),
          BigInt(oracle.classes),
        ]);
      }
    }
    expect(bruteForce(8)).toEqual({ boards: 92, classes: 12 });
  });

  it('matches OEIS A000170 and A002562 up to n = 16, by the WebAssembly and the TypeScript search', () => {
    for (const engine of ['wasm', 'js'] as const) {
      for (let n = 1; n <= 16; n++) {
        const totals = classicTotals(n, 'pruned', engine);
        expect([engine, n, totals.boards.toString(), totals.classes.toString()]).toEqual([
          engine,
          n,
          CLASSIC_QUEENS[n - 1],
          UNIQUE_QUEENS[n - 1],
        ]);
      }
    }
  });

  it('gives every unit the same subtotals by both methods (n = 12, 13), with either engine', () => {
    for (const n of [12, 13]) {
      for (const unit of classicUnits(n)) {
        const images = countClassicUnit(unit, 'images');
        for (const engine of ['wasm', 'js'] as const) {
          expect([classicUnitKey(unit), engine, countClassicUnit(unit, 'pruned', engine)]).toEqual([
            classicUnitKey(unit),
            engine,
            images,
          ]);
        }
      }
    }
  });

  it('counts a unit the same whatever unit its thread counted before (module state is per unit)', () => {
    // A worker counts units in any order, corner units after edge units of another n included.
    const units = [12, 9, 13, 11].flatMap((n) => classicUnits(n).reverse());
    const subtotals = (engine: 'wasm' | 'js') =>
      units.map((unit) => [unit.n, classicUnitKey(unit), countClassicUnit(unit, 'pruned', engine)]);
    expect(subtotals('wasm')).toEqual(subtotals('js'));
  });

  it('has the WebAssembly build, equal to the TypeScript search on every unit of n = 4 … 14', () => {
    // The build (turbo: test depends on build) compiles it; missing, `auto` would quietly fall
    // back to TypeScript, so its absence is a failure here.
    expect(classicWasm()).toBeDefined();
    expect(CLASSIC_ENGINES).toEqual(['auto', 'wasm', 'js']);
    for (let n = 4; n <= 14; n++) {
      for (const unit of classicUnits(n)) {
        const key = classicUnitKey(unit);
        expect([n, key, countClassicUnit(unit, 'pruned', 'wasm')]).toEqual([
          n,
          key,
          countClassicUnit(unit, 'pruned', 'js'),
        ]);
      }
    }
    expect(() => countClassicUnit(classicUnits(8)[0]!, 'pruned', 'gpu' as 'js')).toThrow(/engine/);
  });

  it('names the units of n = 8 by the columns of rows 0 and 1', () => {
    const keys = classicUnits(8).map(classicUnitKey);
    expect(keys).toEqual([
      '0.2',
      '0.3',
      '0.4',
      '0.5',
      '0.6',
      '1.3',
      '1.4',
      '1.5',
      '1.6',
      '1.7',
      '2.4',
      '2.5',
      '2.6',
      '3.1',
      '3.5',
      '3.6',
    ]);
    expect(parseClassicUnitKey(8, '1.3')).toEqual({ n: 8, first: 1, second: 3 });
    expect(parseClassicUnitKey(8, '5.0')).toBeUndefined();
    expect(classicUnits(3).map(classicUnitKey)).toEqual(['*']);
  });
});
