// The weak-queens problem as the client sees it: N(n, D) for every attack depth D and S(n),
// planned per (n, D) for the cluster there is (algorithm, unit sizes, recorded plans).
import { randomBytes } from 'node:crypto';
import { type Calibration, PROBLEM_REGISTRY, sumJobId } from '../../contracts/index.js';
import { clusterMemory, planForCluster, type ClusterDescription } from '../cluster-plan.js';
import { HugeSweepError } from '../errors.js';
import type { PipelineParts } from '../pipeline-parts.js';
import { estimateSweepSeconds } from '../sweep-estimate.js';
import { type PlannedSize, planSize } from '../sweep-planner.js';
import { type DepthPlan, WeakProgress } from '../weak-progress.js';
import type { PlanContext, Problem, ProblemPlan } from './problem.js';

/** The share of planning time the cluster plan takes (the rest: recording each n's plan). */
const CLUSTER_PLAN_SHARE = 0.7;

/**
 * A fresh sweep id. A submitter that may have to submit again (Redis went away meanwhile)
 * chooses it first and passes it as `sweepId`, so both tries make one sweep.
 */
export function newSweepId(): string {
  return `s-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

/** S(n) by n: the weak problem's results. */
export const weakQueens: Problem<string> = {
  id: 'weak',
  registration: PROBLEM_REGISTRY.weak,
  listsUnits: false,
  samples: false,
  newSweepId,
  sumJobId,
  plan: planWeak,
  results: (parts, ns) => parts.store.sums(ns),
  resultsStored: (parts, ns) => parts.store.sumsStored(ns),
  async countedUnits(parts, n) {
    let counted = 0;
    for (let depth = 0; depth < n; depth++) counted += await parts.store.unitCount(n, depth);
    return counted;
  },
  resubmitOptions: (sweep) => ({
    targetSeconds: sweep.targetSeconds,
    sweepId: sweep.id,
    ...(sweep.verify ? { verify: true } : {}),
    // Its size was accepted (or confirmed with --allow-huge) when it was first submitted.
    allowHuge: true,
  }),
  progress(deps) {
    // One per reader: it keeps the plans it has read (they never change) across reads.
    const weak = new WeakProgress(deps.redis, deps.store, deps.registry, deps.queues);
    return async (sweeps, options) => {
      const ns = [...new Set(sweeps.flatMap((s) => s.ns))];
      const [stored, doneAt] = await Promise.all([
        deps.store.progress(ns, { unitSeconds: options.depths ?? false }),
        deps.store.completionTimes(sweeps),
      ]);
      // The plans of unfinished (n, D): the dashboard's per-D view, and the ETA of a running sweep.
      const plans =
        options.depths || options.eta
          ? await weak.depthPlans(stored)
          : new Map<string, DepthPlan>();
      return (sweep, queues, now) =>
        weak.sweep(sweep, stored, queues, plans, doneAt.get(sweep.id), options, now);
    };
  },
};

/**
 * Algorithms and unit sizes for the workers there are (or, before any has started, for this
 * machine as `npm start` runs it), to end the sweep soonest rather than to do least.
 */
async function planWeak(
  parts: PipelineParts,
  ns: readonly number[],
  options: PlanContext,
): Promise<ProblemPlan> {
  const targetSeconds = options.targetSeconds ?? parts.config.targetSeconds;
  const { cluster, routing } = options;
  const calibration = await parts.store.calibration();
  if (!options.allowHuge) await refuseHuge(parts, ns, cluster, calibration, options);
  const what = 'choosing algorithms and unit sizes';
  const { depthPlans } = planForCluster(ns, cluster, {
    targetSeconds,
    calibration,
    ...(options.onPlanning
      ? {
          onProgress: (f: number) =>
            options.onPlanning?.({ what, fraction: CLUSTER_PLAN_SHARE * f }),
        }
      : {}),
  });
  const estimates: Record<string, number> = {};
  // The n are recorded side by side: their reads and writes share round trips.
  let recorded = 0;
  options.onPlanning?.({
    what: `recording the plans of ${ns.length} n`,
    fraction: CLUSTER_PLAN_SHARE,
  });
  const record = async (n: number): Promise<PlannedSize> => {
    const planned = await planSize(n, parts.store, {
      sweepId: options.sweepId,
      targetSeconds,
      attempts: parts.config.attempts,
      ...clusterMemory(cluster),
      calibration,
      depthPlans,
      baseUnitBytes: routing.baseUnitBytes,
      baseTransferBytes: routing.workerMemoryBytes,
      verify: (options.verify ?? false) || (options.audit ?? false),
      audit: options.audit ?? false,
    });
    recorded += 1;
    const fraction = CLUSTER_PLAN_SHARE + ((1 - CLUSTER_PLAN_SHARE) * recorded) / ns.length;
    options.onPlanning?.({ what: `recorded the plan of n = ${n}`, fraction });
    return planned;
  };
  const plans = await Promise.all(ns.map(record));
  for (const planned of plans) estimates[planned.n] = planned.estimateSeconds;
  return {
    flows: plans,
    record: {
      targetSeconds,
      estimates,
      ...(options.verify || options.audit ? { verify: true } : {}),
    },
    recount: options.audit ?? false,
  };
}

/**
 * Refuses a sweep whose cheapest estimate (the kernel's, calibrated, per (n, D) without
 * splitting: about a second even for n = 32) is beyond WQ_MAX_SWEEP_CORE_SECONDS, before
 * anything is planned in full or queued. Stored n cost nothing (unless counted again).
 */
async function refuseHuge(
  parts: PipelineParts,
  ns: readonly number[],
  cluster: ClusterDescription,
  calibration: Calibration,
  options: { readonly verify?: boolean; readonly audit?: boolean },
): Promise<void> {
  const recount = (options.verify ?? false) || (options.audit ?? false);
  const stored = recount ? new Map<number, string>() : await parts.store.sums(ns);
  const todo = ns.filter((n) => !stored.has(n));
  const coreSeconds = estimateSweepSeconds(todo, {
    // The most memory any unit may get: the estimate is then the least the work can cost.
    slotMemoryBytes: cluster.workerMemoryBytes,
    calibration,
    verify: recount,
  });
  const max = parts.config.maxSweepCoreSeconds;
  if (coreSeconds > max) {
    throw new HugeSweepError(todo, coreSeconds, cluster.workers * cluster.slots, max);
  }
}
