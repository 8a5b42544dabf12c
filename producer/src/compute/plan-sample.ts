// `wq plan --sample k`: costs measured, not modelled. Runs a random sample of the plan's units
// in this process (nothing goes to Redis, nothing is stored) and
// extrapolates each (n, D)'s core-seconds, the sweep's, and its makespan on the planned cluster,
// with 95 % intervals. The DFS's (n, D) are sampled by their units (an (n, D) planned as one
// unit by its top-level units). A window transfer is one unit however large: the largest of each
// n is costed by the same transfer at a smaller n (see transfer-fit.ts), the others of that n at
// its rate, the tiny ones run whole. `k = 'all'` runs every planned unit as planned: the truth
// the estimate is validated against.
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
  combinedEstimates,
  interval,
  type Measured,
  type StratumEstimate,
} from './sample-estimate.js';
import { type FitRun, fittedRate, transferCostings } from './transfer-fit.js';

/** A one-unit DFS (n, D) modelled under this many seconds is simply run. */
const RUN_WHOLE_MODEL_SECONDS = 0.5;

export interface SampleOptions {
  /** Units to sample, or 'all': every planned unit run as planned, transfers whole (the truth). */
  readonly k: number | 'all';
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
  /** A transfer priced at a fitted one's rate: that one's (n, D). */
  readonly pricedBy?: { readonly n: number; readonly depth: number };
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
  /** A transfer costed otherwise than by its own units (unless every unit is run). */
  readonly transfer: boolean;
}

interface Job {
  readonly stratum: number;
  readonly unit: WorkUnit;
  /** A fitted transfer's smaller n, else undefined. */
  readonly fittedN?: number;
  /** A warm-up: run and paid for, but not a measurement. */
  readonly warm?: boolean;
}

/** The (n, D) of `ns` in `plan` as strata. */
function strataOf(plan: ClusterPlan, ns: readonly number[], all: boolean): Stratum[] {
  const strata: Stratum[] = [];
  for (const n of ns) {
    for (let depth = 0; depth < n; depth++) {
      const planned = plan.depthPlans.get(`${n}:${depth}`);
      if (!planned) continue;
      const units = planned.units.map((u) => u.unit);
      const only = units[0];
      const wholeDfs =
        !all &&
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
        transfer: !all && planned.algorithm !== 'dfs',
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

/** The jobs of the transfers: run whole, or their fits (smallest first, after a warm-up). */
function transferJobs(strata: readonly Stratum[]): {
  jobs: Job[];
  pricedBy: Map<number, number>;
} {
  const planModel = strata.reduce((t, s) => t + modelOf(s.planned), 0);
  const costings = transferCostings(
    strata.map((s) => (s.transfer ? { ...s, modelSeconds: modelOf(s.planned) } : undefined)),
    planModel,
  );
  const jobs: Job[] = [];
  const pricedBy = new Map<number, number>();
  for (const [i, costing] of costings) {
    const s = strata[i] as Stratum;
    if (costing.kind === 'whole') {
      for (const unit of s.planned) jobs.push({ stratum: i, unit });
    } else if (costing.kind === 'priced') {
      pricedBy.set(i, costing.by);
    } else {
      // A first run of a depth's transfer pays for compiling its code: a small one takes it.
      const [warm] = planUnits(s.depth + 2, s.depth, { algorithm: s.algorithm });
      if (warm) jobs.push({ stratum: i, unit: warm, warm: true });
      for (const { n, unit } of [...costing.points].reverse()) {
        jobs.push({ stratum: i, unit, fittedN: n });
      }
    }
  }
  return { jobs, pricedBy };
}

/** Runs the sample and extrapolates; see the file's comment. */
export async function samplePlan(
  plan: ClusterPlan,
  ns: readonly number[],
  options: SampleOptions,
): Promise<SampleReport> {
  const random = options.random ?? Math.random;
  const all = options.k === 'all';
  const strata = strataOf(plan, ns, all);
  const sampledStrata = strata.map((s, i) => ({ s, i })).filter(({ s }) => !s.transfer);
  const counts = allocateSample(
    sampledStrata.map(({ s }) => ({
      units: s.population.length,
      modelSeconds: modelOf(s.population),
    })),
    options.k === 'all' ? Number.MAX_SAFE_INTEGER : options.k,
  );
  const jobs: Job[] = [];
  sampledStrata.forEach(({ s, i }, j) => {
    for (const unit of pick(s.population, counts[j] ?? 0, random)) jobs.push({ stratum: i, unit });
  });
  const transfers = transferJobs(strata);
  jobs.push(...transfers.jobs);
  // Every unit: the largest first, as a queue would take them.
  if (all) jobs.sort((a, b) => b.unit.estimate.seconds - a.unit.estimate.seconds);

  const measured = jobs.map(() => undefined as number | undefined);
  const failures: SampleFailure[] = [];
  const sampleSeconds = await runJobs(jobs, options, measured, failures);

  // Per stratum its measurements: sampled units, or a fitted transfer's runs at smaller n.
  const bySample = strata.map(() => [] as Measured[]);
  const fitRuns = strata.map(() => [] as FitRun[]);
  jobs.forEach((job, j) => {
    const seconds = measured[j];
    if (seconds === undefined || job.warm) return;
    const model = job.unit.estimate.seconds;
    if (job.fittedN !== undefined) fitRuns[job.stratum]?.push({ n: job.fittedN, model, seconds });
    else bySample[job.stratum]?.push({ modelSeconds: model, seconds });
  });
  // The DFS's rate is common to its strata; a transfer not fitted (run whole, or whose fit
  // failed) takes it only when it has no measurement of its own.
  const combined = combinedEstimates(
    strata.map((s, i) => ({
      units: s.population.length,
      modelSeconds: modelOf(s.population),
      sample: bySample[i] ?? [],
      pools: s.algorithm === 'dfs',
    })),
  );
  const rated = (i: number): ReturnType<typeof fittedRate> | undefined =>
    (fitRuns[i]?.length ?? 0) > 0 ? fittedRate(fitRuns[i] ?? []) : undefined;
  const depths: DepthSample[] = strata.map((s, i) => {
    const base = {
      n: s.n,
      depth: s.depth,
      algorithm: s.algorithm,
      units: s.planned.length,
    };
    const by = transfers.pricedBy.get(i);
    const fit = rated(by ?? i);
    if (s.transfer && fit) {
      const planned = modelOf(s.planned);
      const source = strata[by ?? i] as Stratum;
      return {
        ...base,
        modelSeconds: planned,
        sampled: 0,
        estimate: {
          rate: fit.rate,
          coreSeconds: fit.rate * planned,
          variance: (fit.spread * planned) ** 2,
          source: 'fallback',
        },
        ...(by === undefined
          ? { fittedOn: fit.rates }
          : { pricedBy: { n: source.n, depth: source.depth } }),
      };
    }
    return {
      ...base,
      modelSeconds: modelOf(s.population),
      sampled: bySample[i]?.length ?? 0,
      estimate: combined[i] as StratumEstimate,
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
    sampleSeconds,
    sampledUnits: jobs.length,
    failures,
  };
}

/**
 * Runs the jobs one after another in this thread, in their order, each timed by the CPU time it
 * took (not the wall clock: on a shared machine the wall clock measures the neighbours). A
 * first small unit of each algorithm warms the compiler up and is not a measurement. Returns
 * the CPU seconds of it all, warm-ups included: what the sample cost.
 */
async function runJobs(
  jobs: readonly Job[],
  options: SampleOptions,
  measured: (number | undefined)[],
  failures: SampleFailure[],
): Promise<number> {
  const start = process.cpuUsage();
  for (const algorithm of new Set(jobs.map((j) => j.unit.algorithm))) {
    const [warm] = planUnits(11, 7, { algorithm });
    if (warm) countUnit(warm);
  }
  let done = 0;
  for (const [j, job] of jobs.entries()) {
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
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}
