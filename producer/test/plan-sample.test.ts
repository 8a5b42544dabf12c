// `wq plan --sample k`: the estimator's arithmetic with exact inputs, the sampler on real units
// (in this process, no Redis), a sample whose unit fails, and the refusals of bad input.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ClusterPlan, planForCluster } from '@weak-queens/shared/client';
import { planUnits } from '@weak-queens/shared/kernel';
import {
  allocateSample,
  combinedEstimates,
  interval,
  Z95,
} from '../src/compute/sample-estimate.js';
import { fittedRate, transferCostings } from '../src/compute/transfer-fit.js';
import { samplePlan } from '../src/compute/plan-sample.js';
import { sampleText } from '../src/cli/sample-output.js';

/** A stratum pooled into the DFS's rate, its sample as [model seconds, measured seconds] pairs. */
function pooled(units: number, modelSeconds: number, ...sample: [number, number][]) {
  return {
    units,
    modelSeconds,
    pools: true,
    sample: sample.map(([model, seconds]) => ({ modelSeconds: model, seconds })),
  };
}

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

describe('when the strata are estimated from their samples', () => {
  it("is the combined ratio estimator: Σ N·ȳ ÷ Σ N·x̄ times each stratum's model seconds", () => {
    const [a, b, none, whole, transfer] = combinedEstimates([
      pooled(10, 20, [1, 2], [2, 5]),
      pooled(4, 8, [2, 3]),
      pooled(5, 10),
      pooled(2, 4, [1, 3], [3, 3]),
      // A transfer run whole: exact, and its rate is not the DFS's.
      { units: 1, modelSeconds: 1, pools: false, sample: [{ modelSeconds: 1, seconds: 9 }] },
    ]);
    // Σ N·ȳ = 10·3.5 + 4·3 + 2·3 = 53; Σ N·x̄ = 10·1.5 + 4·2 + 2·2 = 27.
    const rate = 53 / 27;
    expect(a?.rate).toBe(rate);
    expect(a?.coreSeconds).toBe(rate * 20);
    // Relative residuals (y − R·x)/x of the three units not measured whole: 2 − R, 2.5 − R,
    // 1.5 − R; v = their squares ÷ 2. Stratum a: 10² · (1 − 2/10) · v · 2² ÷ 2.
    const v = ((2 - rate) ** 2 + (2.5 - rate) ** 2 + (1.5 - rate) ** 2) / 2;
    expect(a?.variance).toBeCloseTo((100 * 0.8 * v * 4) / 2, 12);
    expect(a?.source).toBe('sample');
    expect(b?.variance).toBeCloseTo(16 * 0.75 * v * 4, 12);
    // No sample: the common rate, as if one unit had been drawn.
    expect(none).toMatchObject({ rate, coreSeconds: rate * 10, source: 'fallback' });
    expect(none?.variance).toBeCloseTo(25 * v * 4, 12);
    expect(whole).toEqual({ rate: 1.5, coreSeconds: 6, variance: 0, source: 'whole' });
    expect(transfer).toEqual({ rate: 9, coreSeconds: 9, variance: 0, source: 'whole' });
  });

  it('is the model, ±100 %, when nothing pools', () => {
    expect(combinedEstimates([pooled(4, 8)])).toEqual([
      { rate: 1, coreSeconds: 8, variance: 16 * 4, source: 'fallback' },
    ]);
  });

  it('sums intervals at 95 %', () => {
    expect(Z95).toBe(1.96);
    expect(
      interval([
        { coreSeconds: 10, variance: 9 },
        { coreSeconds: 20, variance: 16 },
      ]),
    ).toEqual({ coreSeconds: 30, low: 30 - 1.96 * 5, high: 30 + 1.96 * 5 });
  });
});

describe('when the transfers of a plan are costed', () => {
  it('fits the largest of an n on smaller boards, prices the others at its rate, runs the tiny', () => {
    const t = (depth: number, modelSeconds: number) => ({
      n: 16,
      depth,
      algorithm: 'window-transfer' as const,
      modelSeconds,
    });
    // S(16) as planned for this machine: 37.5 model seconds in all.
    const costings = transferCostings(
      [t(5, 0.013), t(7, 0.445), t(8, 1.93), t(9, 6.94), undefined],
      37.5,
    );
    const fitted = costings.get(3);
    expect(fitted?.kind).toBe('fitted');
    // N(14, 9) is the largest within 2.5 % of the plan; N(13, 9) gives the spread.
    expect(fitted?.kind === 'fitted' && fitted.points.map((p) => p.n)).toEqual([14, 13]);
    expect(costings.get(2)).toEqual({ kind: 'priced', by: 3 });
    expect(costings.get(1)).toEqual({ kind: 'priced', by: 3 });
    expect(costings.get(0)).toEqual({ kind: 'whole' });
    expect(costings.has(4)).toBe(false);
    // Where every smaller board is too dear or too small to say anything (under 50 ms of
    // model), the transfer is run whole.
    expect(transferCostings([t(7, 0.445)], 1)).toEqual(new Map([[0, { kind: 'whole' }]]));
  });

  it("takes the larger board's rate, and the two rates' difference as one σ", () => {
    expect(
      fittedRate([
        { n: 13, model: 2, seconds: 3 },
        { n: 14, model: 4, seconds: 4 },
      ]),
    ).toEqual({
      rate: 1,
      spread: 0.5,
      rates: [
        { n: 14, rate: 1 },
        { n: 13, rate: 1.5 },
      ],
    });
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

  it("with k = 'all', runs every planned unit, transfers whole: exact", async () => {
    const plan = planForCluster(
      [11],
      { workers: 1, slots: 2, workerMemoryBytes: 2 * 1024 ** 3 },
      { targetSeconds: 30 },
    );
    const report = await samplePlan(plan, [11], { k: 'all' });
    expect(report.failures).toEqual([]);
    expect(report.depths.every((d) => d.estimate.source === 'whole')).toBe(true);
    expect(report.depths.map((d) => d.sampled)).toEqual(report.depths.map((d) => d.units));
    expect(report.sampledUnits).toBe(plan.sizes[0]?.units);
    expect(report.coreSeconds.low).toBe(report.coreSeconds.high);
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

describe('when --sample is all', () => {
  it('runs every unit of the plan and prints the measured cost, exact', async () => {
    const run = await wq('plan', '10', '--workers', '1', '--slots', '2', '--sample', 'all');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('sample: 10 unit(s) run here');
    expect(run.stdout).toMatch(/sweep, measured: .* \(95%: (.+) – \1;/);
  });
});
