// The planner for a cluster (`wq plan`): deterministic for the same calibration, sums that add
// up, and the makespan simulation the queue's order follows.
import { describe, expect, it } from 'vitest';
import { planForCluster, simulateMakespan } from '../src/client/cluster-plan.js';

const GiB = 2 ** 30;

describe('when the makespan of unit times is simulated', () => {
  it('runs the largest first, each on the slot that frees up first', () => {
    // 3 | 3 on two slots, then 2 → 5, 2 → 5, 2 → 7.
    expect(simulateMakespan([2, 3, 2, 3, 2], 2)).toBe(7);
    expect(simulateMakespan([5, 1, 1, 1, 1, 1], 2)).toBe(5);
    expect(simulateMakespan([], 4)).toBe(0);
    expect(simulateMakespan([4, 4, 4], 8)).toBe(4);
  });
});

describe('when a sweep is planned for a described cluster', () => {
  const cluster = { workers: 4, slots: 2, workerMemoryBytes: 4 * GiB };
  const calibration = { dfs: { units: 10, modelSeconds: 10, actualSeconds: 20, ratio: 2 } };

  it('gives the same plan twice for the same calibration', () => {
    const a = planForCluster([11, 12], cluster, { targetSeconds: 30, calibration });
    const b = planForCluster([11, 12], cluster, { targetSeconds: 30, calibration });
    expect(a.sizes).toEqual(b.sizes);
    expect(a.makespanSeconds).toBe(b.makespanSeconds);
  });

  it('has sums that add up: units and core-seconds per n and per sweep, and the efficiency', () => {
    const plan = planForCluster([11, 12], cluster, { targetSeconds: 30, calibration });
    for (const size of plan.sizes) {
      expect(size.depths.map((d) => d.depth)).toEqual(Array.from({ length: size.n }, (_, d) => d));
      expect(size.units).toBe(size.depths.reduce((t, d) => t + d.units, 0));
      expect(size.coreSeconds).toBeCloseTo(
        size.depths.reduce((t, d) => t + d.coreSeconds, 0),
        9,
      );
    }
    expect(plan.coreSeconds).toBeCloseTo(
      plan.sizes.reduce((t, s) => t + s.coreSeconds, 0),
      9,
    );
    expect(plan.efficiency).toBeCloseTo(plan.coreSeconds / (8 * plan.makespanSeconds), 9);
    // No unit is planned beyond one slot's share of a worker's memory.
    for (const size of plan.sizes)
      for (const d of size.depths) expect(d.bytes).toBeLessThanOrEqual(2 * GiB);
    // The simulated makespan is never below the fair share or the longest unit.
    const longest = Math.max(
      ...plan.sizes.flatMap((s) => s.depths.map((d) => d.longestUnitSeconds)),
    );
    expect(plan.makespanSeconds).toBeGreaterThanOrEqual(
      Math.max(longest, plan.coreSeconds / 8) - 1e-9,
    );
  });
});

describe('when one window transfer would bound the makespan of a large cluster', () => {
  it('splits it into transfer parts where that ends the sweep sooner, and not on a small one', () => {
    const large = planForCluster(
      [14],
      { workers: 1024, slots: 1, workerMemoryBytes: 3 * GiB },
      {
        targetSeconds: 30,
      },
    );
    const parted = large.sizes[0]!.depths.filter(
      (d) => d.algorithm === 'window-transfer' && d.units > 1,
    );
    // The DFS's (n, D) that bounded it first go over every slot as their top-level units; then
    // the longest transfer, D = 6, ends sooner as eight parts. (n = 13's transfers, D ≤ 4
    // since the DFS runs as WebAssembly, are too short to gain from parts.)
    expect(parted.map((d) => d.depth)).toEqual([6]);
    const units = large.depthPlans.get('14:6')!.units.map((u) => u.unit.part);
    expect(units).toEqual(Array.from({ length: 8 }, (_, index) => ({ index, of: 8 })));
    expect(large.depthPlans.get('14:7')!.units).toHaveLength(42);

    const small = planForCluster(
      [14],
      { workers: 2, slots: 1, workerMemoryBytes: 3 * GiB },
      {
        targetSeconds: 30,
      },
    );
    for (const d of small.sizes[0]!.depths) {
      if (d.algorithm === 'window-transfer') expect(d.units).toBe(1);
    }
  });
});

describe('when a window transfer needs more than a slot but fits the worker', () => {
  it('plans it whole, on the worker (all its slots), not as the DFS', () => {
    const machine = { workers: 1, slots: 2, workerMemoryBytes: 18 * GiB, slotMemoryBytes: 3 * GiB };
    const plan = planForCluster([18], machine, { targetSeconds: 30 });
    const d10 = plan.sizes[0]?.depths[10];
    expect([d10?.algorithm, d10?.units]).toEqual(['window-transfer', 1]);
    expect(d10?.bytes).toBeGreaterThan(3 * GiB);
    expect(d10?.bytes).toBeLessThanOrEqual(18 * GiB);
    expect(d10?.transferDoesNotFit).toBeUndefined();
    // D = 11's transfer (2.9e9 windows, 16.4 GiB) would fit, but the WebAssembly DFS is
    // estimated cheaper: the DFS, chosen on time, not memory.
    const d11 = plan.sizes[0]?.depths[11];
    expect(d11?.algorithm).toBe('dfs');
    expect(d11?.transferDoesNotFit).toBeUndefined();
  });

  it('counts D = 11 by the DFS on a smaller worker too, with no note (the DFS is the cheaper)', () => {
    const machine = { workers: 1, slots: 2, workerMemoryBytes: 12 * GiB, slotMemoryBytes: 3 * GiB };
    const d11 = planForCluster([18], machine, { targetSeconds: 30 }).sizes[0]?.depths[11];
    expect(d11?.algorithm).toBe('dfs');
    expect(d11?.transferDoesNotFit).toBeUndefined();
  });

  it('says what it chose instead, and what each costs, where the worker cannot hold it', () => {
    const small = { workers: 1, slots: 2, workerMemoryBytes: 4 * GiB, slotMemoryBytes: 3 * GiB };
    const d10 = planForCluster([18], small, { targetSeconds: 30 }).sizes[0]?.depths[10];
    expect(d10?.algorithm).toBe('dfs');
    expect(d10?.transferDoesNotFit?.workerMemoryBytes).toBe(4 * GiB);
    expect(d10?.transferDoesNotFit?.bytes).toBeGreaterThan(4 * GiB);
    expect(d10?.transferDoesNotFit?.coreSeconds).toBeLessThan(d10?.coreSeconds ?? 0);
  });
});

describe('when a window transfer would index more windows than it can', () => {
  it('says so, and what the DFS costs instead, whatever the memory', () => {
    const huge = {
      workers: 1,
      slots: 16,
      workerMemoryBytes: 1024 * GiB,
      slotMemoryBytes: 64 * GiB,
    };
    const depths = planForCluster([19], huge, { targetSeconds: 30 }).sizes[0]!.depths;
    // N(19, 10): 3.0e9 windows, a transfer; N(19, 11): 9.3e9, past the 2^32 − 2 it indexes.
    expect(depths[10]?.algorithm).toBe('window-transfer');
    const d11 = depths[11];
    expect(d11?.algorithm).toBe('dfs');
    expect(d11?.transferDoesNotFit).toBeUndefined();
    expect(d11?.transferTooManyWindows?.maxWindows).toBe(0.9 * (2 ** 32 - 2));
    expect(d11?.transferTooManyWindows?.windows).toBeGreaterThan(2 ** 32);
    expect(d11?.transferTooManyWindows?.coreSeconds).toBeLessThan(d11?.coreSeconds ?? 0);
  });
});
