// `wq plan --sample k`: the estimator's arithmetic with exact inputs, the sampler on real units
// (in this process, no Redis), a sample whose unit fails, and the refusals of bad input.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ClusterPlan, planForCluster } from '@weak-queens/shared/client';
import { planUnits } from '@weak-queens/shared/kernel';
import {
  allocateSample,
  estimateStratum,
  interval,
  pooledFallback,
  Z95,
} from '../src/compute/sample-estimate.js';
import { samplePlan } from '../src/compute/plan-sample.js';
import { sampleText } from '../src/cli/sample-output.js';

const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));

function wq(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.REDIS_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [WQ, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('when k units are spread over the strata', () => {
  it('gives each its share of the model seconds, largest remainders first, within its units', () => {
    const strata = [
      { units: 100, modelSeconds: 60 },
      { units: 100, modelSeconds: 30 },
      { units: 2, modelSeconds: 10 },
    ];
    expect(allocateSample(strata, 10)).toEqual([6, 3, 1]);
    expect(allocateSample(strata, 7)).toEqual([4, 2, 1]);
    // A stratum that is full passes its share on.
    expect(
      allocateSample(
        [
          { units: 1, modelSeconds: 90 },
          { units: 50, modelSeconds: 10 },
        ],
        5,
      ),
    ).toEqual([1, 4]);
    // Never more than all the units.
    expect(allocateSample([{ units: 2, modelSeconds: 1 }], 9)).toEqual([2]);
  });
});

describe('when a stratum is estimated from its sample', () => {
  it('is the ratio estimator: rate × model seconds, variance N²(1 − n/N)s²ₑ/n', () => {
    const sample = [
      { modelSeconds: 1, seconds: 2 },
      { modelSeconds: 2, seconds: 5 },
      { modelSeconds: 3, seconds: 5 },
    ];
    const fallback = { rate: 1, relativeVariance: 1 };
    const e = estimateStratum({ units: 30, modelSeconds: 60 }, sample, fallback);
    // rate 12 / 6 = 2; residuals 0, 1, −1: s² = 2 / 2 = 1; 900 · 0.9 · 1 / 3 = 270.
    expect(e.rate).toBe(2);
    expect(e.coreSeconds).toBe(120);
    expect(e.variance).toBeCloseTo(270, 10);
    expect(e.source).toBe('sample');
  });

  it('is exact when every unit was measured, and the fallback when too few were', () => {
    const fallback = { rate: 1.5, relativeVariance: 0.04 };
    const whole = estimateStratum(
      { units: 2, modelSeconds: 4 },
      [
        { modelSeconds: 1, seconds: 3 },
        { modelSeconds: 3, seconds: 3 },
      ],
      fallback,
    );
    expect(whole).toEqual({ rate: 1.5, coreSeconds: 6, variance: 0, source: 'whole' });
    const none = estimateStratum({ units: 4, modelSeconds: 8 }, [], fallback);
    // 12 core-seconds, 3 a unit: 4 · 9 · 0.04.
    expect(none.coreSeconds).toBe(12);
    expect(none.variance).toBeCloseTo(1.44, 12);
    expect(none.source).toBe('fallback');
  });

  it('pools a fallback rate and relative spread, and sums intervals at 95 %', () => {
    const pooled = pooledFallback([
      { modelSeconds: 1, seconds: 1 },
      { modelSeconds: 1, seconds: 3 },
    ]);
    // Rate 2; residuals −1, 1: s² = 2; mean seconds 2: 2 / 4.
    expect(pooled).toEqual({ rate: 2, relativeVariance: 0.5 });
    expect(Z95).toBe(1.96);
    expect(
      interval([
        { coreSeconds: 10, variance: 9 },
        { coreSeconds: 20, variance: 16 },
      ]),
    ).toEqual({ coreSeconds: 30, low: 30 - 1.96 * 5, high: 30 + 1.96 * 5 });
  });
});

describe('when a plan is sampled', () => {
  it('measures every (n, D) of it and extrapolates the sweep, nothing stored', async () => {
    const plan = planForCluster(
      [11],
      { workers: 1, slots: 2, workerMemoryBytes: 2 * 1024 ** 3 },
      {
        targetSeconds: 30,
      },
    );
    const report = await samplePlan(plan, [11], { k: 3 });
    expect(report.depths.map((d) => d.depth)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(report.failures).toEqual([]);
    expect(report.coreSeconds.coreSeconds).toBeGreaterThan(0);
    expect(report.coreSeconds.low).toBeLessThanOrEqual(report.coreSeconds.coreSeconds);
    expect(report.coreSeconds.high).toBeGreaterThanOrEqual(report.coreSeconds.coreSeconds);
    expect(report.makespanSeconds.seconds).toBeGreaterThan(0);
  });

  it('says which sampled units failed, and estimates their (n, D) without them', async () => {
    const [good] = planUnits(8, 3, { algorithm: 'window-transfer' });
    if (!good) throw new Error('no unit');
    // Two queens in one column of the first rows: the kernel refuses the unit.
    const bad = { ...good, algorithm: 'dfs' as const, prefix: [0, 0] };
    const plan = {
      cluster: { workers: 1, slots: 1, workerMemoryBytes: 1024 ** 3 },
      targetSeconds: 1,
      sizes: [{ n: 8, units: 2, coreSeconds: 0, depths: [] }],
      depthPlans: new Map([
        [
          '8:3',
          {
            n: 8,
            depth: 3,
            algorithm: 'window-transfer' as const,
            units: [{ unit: good, estimateSeconds: 0, priority: 1 }],
          },
        ],
        [
          '8:4',
          {
            n: 8,
            depth: 4,
            algorithm: 'dfs' as const,
            units: [{ unit: { ...bad, depth: 4 }, estimateSeconds: 0, priority: 1 }],
          },
        ],
      ]),
      coreSeconds: 0,
      makespanSeconds: 0,
      efficiency: 1,
    } satisfies ClusterPlan;
    const report = await samplePlan(plan, [8], { k: 1 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ n: 8, depth: 4 });
    expect(report.failures[0]?.reason).toContain('prefix');
    const text = sampleText(plan, report);
    expect(text).toContain('failed: a sampled unit of N(8, 4): ');
    expect(text).toContain('1 sampled unit(s) failed');
  });
});

describe("when --sample is not a number of the plan's units", () => {
  it.each([
    ['0', 'wq plan: --sample: "0" is not allowed; expected an integer ≥ 1'],
    ['-3', 'wq plan: --sample: "-3" is not allowed; expected an integer ≥ 1'],
    ['abc', 'wq plan: --sample: "abc" is not allowed; expected an integer ≥ 1'],
    ['2.5', 'wq plan: --sample: "2.5" is not allowed; expected an integer ≥ 1'],
    [
      '11',
      'wq plan: --sample: "11" is not allowed; expected an integer from 1 to 10 (the plan\'s units)',
    ],
  ])('refuses --sample=%s with one line and exit 2', async (value, line) => {
    const run = await wq('plan', '10', '--workers', '1', '--slots', '2', `--sample=${value}`);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});
