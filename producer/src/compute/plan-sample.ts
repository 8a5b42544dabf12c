// `wq plan --sample k`: costs measured, not modelled. Runs a random sample of the plan's units
// in this process (nothing goes to Redis, nothing is stored) and
// extrapolates each (n, D)'s core-seconds, the sweep's, and its makespan on the planned cluster,
// with 95 % intervals. The DFS's (n, D) are sampled by their units (an (n, D) planned as one
// unit by its top-level units); a window transfer, one unit however large, is costed by the same
// transfer at smaller n (the largest whose model is a small share of it), its rate checked
// against the next smaller n.
import {
  type Algorithm,
  countUnit,
  DEFAULT_MAX_UNITS,
  planUnits,
  type WorkUnit,
} from '@weak-queens/shared/kernel';
import { type ClusterPlan, simulateMakespan } from '@weak-queens/shared/client';
import {
  allocateSample,
  estimateStratum,
  interval,
  type Measured,
  pooledFallback,
  type StratumEstimate,
} from './sample-estimate.js';

/** A transfer is costed at the largest smaller n whose model is at most this share of it. */
const FITTED_SHARE = 0.02;
/** A transfer (or a one-unit DFS (n, D)) modelled under this many seconds is simply run. */
const RUN_WHOLE_MODEL_SECONDS = 0.5;
/**
 * A smaller transfer modelled under this is not fitted on: a larger (n, D) whose cheap enough
 * smaller n is this small is run whole instead (its model is at most this ÷ FITTED_SHARE).
 */
const MIN_FITTED_MODEL_SECONDS = 0.05;

export interface SampleOptions {
  readonly k: number;
  /** Numbers in [0, 1); default Math.random. */
  readonly random?: () => number;
  /** Called as sampled units finish: done of all. */
  readonly onProgress?: (done: number, all: number) => void;
}

export interface DepthSample {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: string;
  readonly units: number;
  /** The kernel's model seconds of the whole (n, D). */
  readonly modelSeconds: number;
  readonly sampled: number;
  readonly estimate: StratumEstimate;
  /** A fitted transfer: the smaller n measured, and their rates. */
  readonly fittedOn?: readonly { n: number; rate: number }[];
}

interface SampleFailure {
  readonly n: number;
  readonly depth: number;
  readonly reason: string;
}

export interface SampleReport {
  readonly depths: readonly DepthSample[];
  readonly coreSeconds: { coreSeconds: number; low: number; high: number };
  readonly makespanSeconds: { seconds: number; low: number; high: number };
  /** Core-seconds the sample itself took. */
  readonly sampleSeconds: number;
  readonly sampledUnits: number;
  readonly failures: readonly SampleFailure[];
}

/** A stratum: one (n, D) of the plan and the units it is sampled by. */
interface Stratum {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  /** The plan's units (what the makespan runs). */
  readonly planned: readonly WorkUnit[];
  /** What the sample draws from: the planned units, or a one-unit DFS (n, D)'s top-level units. */
  readonly population: readonly WorkUnit[];
  readonly fitted: boolean;
}

interface Job {
  readonly stratum: number;
  readonly unit: WorkUnit;
  /** A fitted transfer's smaller n, else undefined. */
  readonly fittedN?: number;
}

/** The (n, D) of `ns` in `plan` as strata. */
function strataOf(plan: ClusterPlan, ns: readonly number[]): Stratum[] {
  const strata: Stratum[] = [];
  for (const n of ns) {
    for (let depth = 0; depth < n; depth++) {
      const planned = plan.depthPlans.get(`${n}:${depth}`);
      if (!planned) continue;
      const units = planned.units.map((u) => u.unit);
      const only = units[0];
      const wholeDfs =
        units.length === 1 &&
        only?.algorithm === 'dfs' &&
        only.prefix.length === 0 &&
        only.middle.length === 0 &&
        only.estimate.seconds > RUN_WHOLE_MODEL_SECONDS;
      const population = wholeDfs
        ? planUnits(n, depth, { algorithm: 'dfs', wholeDfs: false, maxUnits: DEFAULT_MAX_UNITS })
        : units;
      strata.push({
        n,
        depth,
        algorithm: planned.algorithm,
        planned: units,
        population,
        fitted: planned.algorithm !== 'dfs',
      });
    }
  }
  return strata;
}

const modelOf = (units: readonly WorkUnit[]): number =>
  units.reduce((t, u) => t + u.estimate.seconds, 0);

/** The units of the plan for ns (what `--sample k` may not exceed). */
export function planUnitCount(plan: ClusterPlan, ns: readonly number[]): number {
  return plan.sizes.filter((s) => ns.includes(s.n)).reduce((t, s) => t + s.units, 0);
}

/** Picks `count` of `items` at random, without replacement. */
function pick<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = 0; i < count && i < copy.length; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, count);
}

/** The smaller boards a transfer (n, D) is costed on: the largest n' cheap enough, and n' − 1. */
function fittedUnits(stratum: Stratum): { n: number; unit: WorkUnit }[] {
  const { n, depth, algorithm } = stratum;
  const model = modelOf(stratum.planned);
  if (model <= RUN_WHOLE_MODEL_SECONDS) return [];
  const found: { n: number; unit: WorkUnit }[] = [];
  for (let m = n - 1; m > depth && found.length < 2; m--) {
    const [unit] = planUnits(m, depth, { algorithm });
    if (!unit || unit.estimate.seconds > FITTED_SHARE * model) continue;
    // Below this a transfer is mostly its fixed costs: its rate says nothing of a large one.
    if (found.length === 0 && unit.estimate.seconds < MIN_FITTED_MODEL_SECONDS) return [];
    found.push({ n: m, unit });
  }
  return found;
}

/** Runs the sample and extrapolates; see the file's comment. */
export async function samplePlan(
  plan: ClusterPlan,
  ns: readonly number[],
  options: SampleOptions,
): Promise<SampleReport> {
  const random = options.random ?? Math.random;
  const strata = strataOf(plan, ns);
  const sampled = strata.map(() => [] as WorkUnit[]);
  const sampledStrata = strata.map((s, i) => ({ s, i })).filter(({ s }) => !s.fitted);
  const counts = allocateSample(
    sampledStrata.map(({ s }) => ({
      units: s.population.length,
      modelSeconds: modelOf(s.population),
    })),
    options.k,
  );
  const jobs: Job[] = [];
  sampledStrata.forEach(({ s, i }, j) => {
    const chosen = pick(s.population, counts[j] ?? 0, random);
    sampled[i] = chosen;
    for (const unit of chosen) jobs.push({ stratum: i, unit });
  });
  strata.forEach((s, i) => {
    if (!s.fitted) return;
    const smaller = fittedUnits(s);
    if (smaller.length === 0) {
      for (const unit of s.planned) jobs.push({ stratum: i, unit });
    } else {
      for (const { n, unit } of smaller) jobs.push({ stratum: i, unit, fittedN: n });
    }
  });

  const measured = jobs.map(() => undefined as number | undefined);
  const failures: SampleFailure[] = [];
  await runJobs(jobs, options, measured, failures);

  // Per stratum: its own sample, or the pooled DFS sample as the fallback.
  const bySample = strata.map(() => [] as Measured[]);
  const fittedRuns = strata.map(() => [] as { n: number; model: number; seconds: number }[]);
  jobs.forEach((job, j) => {
    const seconds = measured[j];
    if (seconds === undefined) return;
    if (job.fittedN !== undefined) {
      fittedRuns[job.stratum]?.push({
        n: job.fittedN,
        model: job.unit.estimate.seconds,
        seconds,
      });
    } else bySample[job.stratum]?.push({ modelSeconds: job.unit.estimate.seconds, seconds });
  });
  const dfsSamples = strata.flatMap((s, i) => (s.algorithm === 'dfs' ? (bySample[i] ?? []) : []));
  const fallback = pooledFallback(dfsSamples);
  const depths: DepthSample[] = strata.map((s, i) => {
    const modelSeconds = modelOf(s.population);
    const size = { units: s.population.length, modelSeconds };
    const runs = fittedRuns[i] ?? [];
    if (s.fitted && runs.length > 0) {
      const rates = runs.map((r) => ({ n: r.n, rate: r.model > 0 ? r.seconds / r.model : 1 }));
      const rate = rates[0]?.rate ?? 1;
      // The next smaller n says how far the rate still moves with n: one σ.
      const spread = rates.length > 1 ? Math.abs(rate - (rates[1]?.rate ?? rate)) : rate / 2;
      const planned = modelOf(s.planned);
      return {
        n: s.n,
        depth: s.depth,
        algorithm: s.algorithm,
        units: s.planned.length,
        modelSeconds: planned,
        sampled: 0,
        estimate: {
          rate,
          coreSeconds: rate * planned,
          variance: (spread * planned) ** 2,
          source: 'fallback',
        },
        fittedOn: rates,
      };
    }
    return {
      n: s.n,
      depth: s.depth,
      algorithm: s.algorithm,
      units: s.planned.length,
      modelSeconds,
      sampled: bySample[i]?.length ?? 0,
      estimate: estimateStratum(size, bySample[i] ?? [], fallback),
    };
  });
  const coreSeconds = interval(depths.map((d) => d.estimate));
  // The makespan of the planned units at their measured rates, and at the interval's ends.
  const unitSeconds = strata.flatMap((s, i) =>
    s.planned.map((u) => u.estimate.seconds * (depths[i]?.estimate.rate ?? 1)),
  );
  const slots = plan.cluster.workers * plan.cluster.slots;
  const makespan = simulateMakespan(unitSeconds, slots);
  const scale = (x: number) => (coreSeconds.coreSeconds > 0 ? x / coreSeconds.coreSeconds : 1);
  return {
    depths,
    coreSeconds,
    makespanSeconds: {
      seconds: makespan,
      low: makespan * scale(coreSeconds.low),
      high: makespan * scale(coreSeconds.high),
    },
    sampleSeconds: measured.reduce<number>((t, s) => t + (s ?? 0), 0),
    sampledUnits: jobs.length,
    failures,
  };
}

/**
 * Runs the jobs one after another in this thread, the largest first, each timed by the CPU
 * time it took (not the wall clock: on a shared machine the wall clock measures the neighbours).
 * A first small unit of each algorithm warms the compiler up and is not counted.
 */
async function runJobs(
  jobs: readonly Job[],
  options: SampleOptions,
  measured: (number | undefined)[],
  failures: SampleFailure[],
): Promise<void> {
  for (const algorithm of new Set(jobs.map((j) => j.unit.algorithm))) {
    const [warm] = planUnits(11, 7, { algorithm });
    if (warm) countUnit(warm);
  }
  const order = jobs
    .map((_, j) => j)
    .sort((a, b) => (jobs[b]?.unit.estimate.seconds ?? 0) - (jobs[a]?.unit.estimate.seconds ?? 0));
  let done = 0;
  for (const j of order) {
    const job = jobs[j] as Job;
    const before = process.cpuUsage();
    try {
      countUnit(job.unit);
      const used = process.cpuUsage(before);
      measured[j] = (used.user + used.system) / 1e6;
    } catch (err) {
      failures.push({
        n: job.unit.n,
        depth: job.unit.depth,
        reason: err instanceof Error ? err.message : String(err),
      });
    }
    options.onProgress?.(++done, jobs.length);
    // Let the event loop breathe between units (a signal, a progress line).
    await new Promise((resolve) => setImmediate(resolve));
  }
}
