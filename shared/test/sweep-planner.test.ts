// The sweep planner without Redis: priorities, the memory cap and the calibrated cost model.
import { describe, expect, it } from 'vitest';
import { calibrationFromFields } from '../src/contracts/index.js';
import {
  chooseAlgorithm,
  countPlacements,
  countUnit,
  DEFAULT_SLOT_MEMORY_BYTES,
  middleStart,
} from '../src/kernel/index.js';
import { planDepth } from '../src/client/sweep-planner.js';
import { PRIORITY_LIMIT, unitPriority } from '../src/client/priority.js';

const defaults = { targetSeconds: 30, slotMemoryBytes: DEFAULT_SLOT_MEMORY_BYTES };

describe('when expected seconds become queue priorities', () => {
  it('gives the most expensive units the lowest numbers, within BullMQ 1..2^21-1', () => {
    expect(PRIORITY_LIMIT).toBe(2_097_151);
    expect(unitPriority(1e9)).toBe(1);
    expect(unitPriority(1e6)).toBe(1);
    expect(unitPriority(1)).toBe(600_001);
    expect(unitPriority(0.01)).toBe(800_001);
    // Below 10 ms, one priority: such units go in the order they were added.
    expect(unitPriority(0.001)).toBe(800_001);
    expect(unitPriority(1e-9)).toBe(800_001);
    expect(unitPriority(0)).toBe(PRIORITY_LIMIT);
    expect(unitPriority(Number.NaN)).toBe(PRIORITY_LIMIT);
    expect(unitPriority(2)).toBeLessThan(unitPriority(1.9));
  });

  it('orders the units of a split (n, D) by their estimates', () => {
    // 56 units of 37–154 ms.
    const plan = planDepth(16, 10, { ...defaults, targetSeconds: 0.5 }, 'dfs');
    expect(plan.units.length).toBeGreaterThan(6);
    const byCost = [...plan.units].sort((a, b) => b.estimateSeconds - a.estimateSeconds);
    const byPriority = [...plan.units].sort((a, b) => a.priority - b.priority);
    expect(byPriority.map((u) => u.estimateSeconds)).toEqual(byCost.map((u) => u.estimateSeconds));
  });

  it('gives units under 10 ms one priority, so they go in the order they were planned', () => {
    const plan = planDepth(12, 9, { ...defaults, targetSeconds: 0.0002 }, 'dfs');
    expect(plan.units.length).toBeGreaterThan(6);
    expect(new Set(plan.units.map((u) => u.priority))).toEqual(new Set([unitPriority(0.01)]));
  });
});

describe('when a unit would need more memory than WQ_SLOT_MEMORY', () => {
  it('plans the (n, D) with the DFS instead, whose units all fit, and still counts it exactly', () => {
    const roomy = planDepth(10, 4, defaults);
    expect(roomy.algorithm).toBe('window-transfer');
    expect(roomy.units).toHaveLength(1);
    const bytes = roomy.units[0]?.unit.estimate.bytes ?? 0;
    expect(bytes).toBeGreaterThan(1024);

    const capped = planDepth(10, 4, { ...defaults, slotMemoryBytes: 1024 });
    expect(capped.algorithm).toBe('dfs');
    expect(capped.units.every((u) => u.unit.estimate.bytes <= 1024)).toBe(true);
    const total = capped.units.reduce((t, u) => t + countUnit(u.unit), 0n);
    expect(total.toString()).toBe('774762');
    expect(countPlacements(10, 4).toString()).toBe('774762');
  });

  it('keeps the cheaper table where it fits', () => {
    expect(chooseAlgorithm(10, 2).algorithm).toBe('window-transfer');
    expect(planDepth(10, 2, { ...defaults, slotMemoryBytes: 1024 ** 2 }).algorithm).toBe(
      'window-transfer',
    );
  });
});

describe('when the cost model is calibrated from measured units', () => {
  it('derives a ratio only from enough measured time, within bounds', () => {
    expect(
      calibrationFromFields({ 'dfs:units': '4', 'dfs:model': '2', 'dfs:actual': '6' }),
    ).toEqual({ dfs: { units: 4, modelSeconds: 2, actualSeconds: 6, ratio: 3 } });
    // Half a second measured is not enough to go by.
    expect(
      calibrationFromFields({ 'dfs:units': '1', 'dfs:model': '0.1', 'dfs:actual': '0.5' }).dfs
        ?.ratio,
    ).toBe(1);
    expect(
      calibrationFromFields({
        'seed-dp:units': '2',
        'seed-dp:model': '0.1',
        'seed-dp:actual': '50',
      })['seed-dp']?.ratio,
    ).toBe(10);
  });

  it('scales estimates, splits to the calibrated target and may change the algorithm', () => {
    // The centre-block units of (12, 9) are about 0.1 ms each: a target below that splits.
    const plain = planDepth(12, 9, { ...defaults, targetSeconds: 0.0001 }, 'dfs');
    const calibration = calibrationFromFields({
      'dfs:units': '10',
      'dfs:model': '1',
      'dfs:actual': '4',
    });
    const slow = planDepth(12, 9, { ...defaults, targetSeconds: 0.0001, calibration }, 'dfs');
    expect(slow.units.length).toBeGreaterThan(plain.units.length);
    for (const u of slow.units) expect(u.estimateSeconds).toBeCloseTo(4 * u.unit.estimate.seconds);
    // Units that cannot split further: their middle run reaches the bottom row.
    const full = (u: (typeof slow.units)[number]) => middleStart(12) + u.unit.middle.length === 12;
    expect(slow.units.every((u) => u.estimateSeconds <= 0.0001 || full(u))).toBe(true);

    // The kernel's estimates pick the window transfer for (12, 5); measured 10× slower, it loses.
    expect(planDepth(12, 5, defaults).algorithm).toBe('window-transfer');
    const slowTable = calibrationFromFields({
      'window-transfer:units': '3',
      'window-transfer:model': '0.2',
      'window-transfer:actual': '2',
    });
    expect(planDepth(12, 5, { ...defaults, calibration: slowTable }).algorithm).toBe('dfs');
  });
});
