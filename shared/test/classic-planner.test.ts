// How a classic n's units become jobs: runs of one row-0 column batched for the slots there
// are, the units counted twice always alone, every unit in exactly one job, in kernel order.
import { describe, expect, it } from 'vitest';
import { batchUnits, JOBS_PER_SLOT } from '../src/client/classic-planner.js';
import { classicUnitJobId } from '../src/contracts/index.js';
import { classicUnitKey, classicUnits } from '../src/kernel/index.js';

describe('batchUnits', () => {
  it('puts every unit in one job, in order, a job holding one row-0 column', () => {
    for (const n of [8, 12, 16, 20]) {
      for (const slots of [1, 2, 3, 16, 1000]) {
        const units = classicUnits(n);
        const batches = batchUnits(units, slots);
        expect(batches.flat()).toEqual(units);
        const most = Math.ceil(units.length / (JOBS_PER_SLOT * slots));
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(most);
          expect(new Set(batch.map((u) => u.first)).size).toBe(1);
        }
      }
    }
  });

  it('batches only where the units outnumber the slots’ share of jobs', () => {
    // Q(16) for two one-slot workers: 92 units in 18 jobs of 4 to 6, the pieces of a column even.
    const two = batchUnits(classicUnits(16), 2);
    expect(two.map((b) => b.length)).toEqual([
      4, 5, 4, 4, 5, 4, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5,
    ]);
    // Sixty-four slots: a job per unit.
    expect(batchUnits(classicUnits(16), 64).every((b) => b.length === 1)).toBe(true);
  });

  it('keeps the units counted twice in jobs of their own, cutting the runs around them', () => {
    const units = classicUnits(12);
    const alone = new Set(['1.3', '1.7', '2.9']);
    const batches = batchUnits(units, 1, (u) => alone.has(classicUnitKey(u)));
    expect(batches.flat()).toEqual(units);
    for (const batch of batches) {
      if (batch.some((u) => alone.has(classicUnitKey(u)))) expect(batch).toHaveLength(1);
    }
    expect(batches.filter((b) => b.length > 1).length).toBeGreaterThan(0);
  });

  it('refuses a number of slots that is no whole number ≥ 1', () => {
    expect(() => batchUnits(classicUnits(8), 0)).toThrow(
      'slots: 0 is not allowed; expected a whole number of slots ≥ 1',
    );
  });

  it('names a batch by its first unit and how many follow it', () => {
    expect(classicUnitJobId(16, '3.7', undefined, 5)).toBe('c16-3.7+4');
    expect(classicUnitJobId(16, '3.7', undefined, 1)).toBe('c16-3.7');
  });
});
