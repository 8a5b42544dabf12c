// A verified sweep's second count: another algorithm where it is affordable, else the first's
// again by another path (the worker meets a transfer past the middle row, and searches a DFS
// unit's mirror image), never hours of DFS against minutes of transfer.
import { describe, expect, it } from 'vitest';
import { planCheck } from '../src/client/sweep-planner.js';
import { estimateCheckTransferBytes } from '../src/kernel/index.js';

const GiB = 2 ** 30;
/** This machine's defaults: 2 slots of about 3 GiB, a worker of about 18 GiB for a transfer. */
const options = { targetSeconds: 30, slotMemoryBytes: 3 * GiB, workerMemoryBytes: 18 * GiB };

describe('when the second count of a transfer is planned', () => {
  it('takes the seed DP where it is affordable (small D)', () => {
    for (const depth of [3, 5, 7]) {
      const check = planCheck(18, depth, 'window-transfer', options);
      expect([depth, check.algorithm, check.role]).toEqual([depth, 'seed-dp', 'check']);
    }
  });

  it('takes the transfer again where every other algorithm would cost hours (D = 8 … 10 at n = 18)', () => {
    for (const depth of [8, 9, 10]) {
      const check = planCheck(18, depth, 'window-transfer', options);
      expect([depth, check.algorithm, check.units.length]).toEqual([depth, 'window-transfer', 1]);
    }
  });

  it('still takes the other algorithm when the first count was the DFS', () => {
    // N(12, 11): the DFS counts first; the transfer's table is small there.
    expect(planCheck(12, 11, 'dfs', options).algorithm).not.toBe('dfs');
    // N(18, 12): no other algorithm fits memory; the DFS again (on another worker).
    expect(planCheck(18, 12, 'dfs', options).algorithm).toBe('dfs');
  });

  it('takes the DFS again (over the mirror images) where the transfer would cost many times the DFS', () => {
    // N(15, 10 … 14): the DFS counts each in about 0.3 s, the transfer would take 6 to 15 s.
    for (const depth of [10, 11, 12, 13, 14]) {
      const check = planCheck(15, depth, 'dfs', options);
      expect([depth, check.algorithm, check.role]).toEqual([depth, 'dfs', 'check']);
    }
    // N(15, 9): the transfer (about 2.5 s) within four times the DFS (0.7 s) and a second.
    expect(planCheck(15, 9, 'dfs', options).algorithm).toBe('window-transfer');
  });

  it('takes the other algorithm where the transfer met past the middle does not fit a worker', () => {
    // N(19, 10) met one row past the middle steps 6 rows: 9^6 > 2^16, so 8-byte cells for
    // 1.5e9 windows and a third vector (a run was OOM-killed at 24 GiB); the first count meets in
    // the middle in 16-bit cells and fits (13.2 GiB).
    const check = planCheck(19, 10, 'window-transfer', options);
    expect([check.algorithm, check.role]).toEqual(['dfs', 'check']);
    expect(estimateCheckTransferBytes(19, 10)).toBeGreaterThan(30 * GiB);
    expect(estimateCheckTransferBytes(18, 10)).toBeLessThan(18 * GiB);
  });
});
