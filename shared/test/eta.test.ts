// The ETA arithmetic of a running sweep, with exact inputs (no clocks, no Redis).
import { describe, expect, it } from 'vitest';
import {
  PRIOR_MODEL_SECONDS,
  remainingTime,
  type StratumProgress,
  stratumRates,
} from '../src/client/run-rates.js';

const stratum = (
  s: Partial<StratumProgress> & Pick<StratumProgress, 'depth'>,
): StratumProgress => ({
  n: 17,
  algorithm: 'dfs',
  doneModelSeconds: 0,
  doneSeconds: 0,
  leftModelSeconds: 0,
  largestLeftModelSeconds: 0,
  ...s,
});

describe('when units of a stratum have finished', () => {
  it('rates it by its own measured seconds over model seconds, shrunk towards its algorithm', () => {
    expect(PRIOR_MODEL_SECONDS).toBe(1);
    const strata = [
      stratum({ depth: 10, doneModelSeconds: 9, doneSeconds: 27 }),
      stratum({ depth: 11, doneModelSeconds: 1, doneSeconds: 1 }),
    ];
    // The DFS as a whole: 28 s for 10 model seconds, 2.8. D = 10: (27 + 2.8) / (9 + 1).
    const [d10, d11] = stratumRates(strata);
    expect(d10).toBeCloseTo(2.98, 12);
    // D = 11: (1 + 2.8) / (1 + 1).
    expect(d11).toBeCloseTo(1.9, 12);
  });

  it('rates a stratum with nothing finished by its algorithm, then by all, then the initial rate', () => {
    const strata = [
      stratum({ depth: 9, algorithm: 'window-transfer', doneModelSeconds: 2, doneSeconds: 1 }),
      stratum({ depth: 12, doneModelSeconds: 4, doneSeconds: 12 }),
      stratum({ depth: 13 }),
      stratum({ depth: 0, algorithm: 'seed-dp' }),
    ];
    const rates = stratumRates(strata);
    expect(rates[2]).toBeCloseTo(3, 12); // the DFS's 12 / 4
    expect(rates[3]).toBeCloseTo(13 / 6, 12); // every algorithm's (1 + 12) / (2 + 4)
    expect(stratumRates([stratum({ depth: 3 })], { initialRate: () => 1.5 })).toEqual([1.5]);
    expect(stratumRates([stratum({ depth: 3 })])).toEqual([1]);
  });
});

describe('when the time left is worked out', () => {
  it('applies each rate to the model seconds left and spreads them over the slots', () => {
    const strata = [
      stratum({
        depth: 10,
        doneModelSeconds: 9,
        doneSeconds: 18,
        leftModelSeconds: 21,
        largestLeftModelSeconds: 1,
      }),
      stratum({
        depth: 11,
        doneModelSeconds: 3,
        doneSeconds: 6,
        leftModelSeconds: 7,
        largestLeftModelSeconds: 2,
      }),
    ];
    // Every rate is 2: 56 core-seconds left, on 4 slots 14 s.
    // Done so far: the finished units' 24 measured seconds.
    expect(remainingTime(strata, { slots: 4 })).toEqual({
      coreSeconds: 56,
      doneCoreSeconds: 24,
      etaSeconds: 14,
    });
    // On 100 slots the longest unit left bounds it: 2 model seconds at rate 2.
    expect(remainingTime(strata, { slots: 100 }).etaSeconds).toBe(4);
    // No live slot: as if one.
    expect(remainingTime(strata, { slots: 0 }).etaSeconds).toBe(56);
  });

  it('takes off what the running units report done', () => {
    const transfer = stratum({
      depth: 8,
      algorithm: 'window-transfer',
      doneModelSeconds: 0,
      leftModelSeconds: 10,
      largestLeftModelSeconds: 10,
      runningDoneModelSeconds: 4,
    });
    // Nothing finished anywhere: the initial rate, 3 here; 6 model seconds left of one unit,
    // and the 4 it reports done count as 12 core-seconds run.
    expect(remainingTime([transfer], { slots: 2, initialRate: () => 3 })).toEqual({
      coreSeconds: 18,
      doneCoreSeconds: 12,
      etaSeconds: 18,
    });
  });

  it('says nothing is left when nothing is', () => {
    expect(remainingTime([], { slots: 2 })).toEqual({
      coreSeconds: 0,
      doneCoreSeconds: 0,
      etaSeconds: 0,
    });
  });
});
