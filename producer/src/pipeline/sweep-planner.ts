// Turns the sizes of a sweep into BullMQ flows, one per n: S(n) ← one job per D ← units for a
// split (n, D). Work the result store already holds is left out. Each (n, D) gets the algorithm
// with the lowest calibrated cost that fits the memory cap, and each unit a queue priority from
// its expected seconds, so the largest units start first and a sweep does not end on a straggler.
import type { FlowJob, FlowJobNode, JobsOptions } from 'bullmq';
import {
  type Algorithm,
  type Calibration,
  calibrationRatio,
  depthJobId,
  type DepthJobData,
  estimateCost,
  JOB_NAMES,
  planUnits,
  QUEUE_NAMES,
  type ResultStore,
  sumJobId,
  type SumJobData,
  unitJobId,
  type UnitJobData,
  unitKey,
  type WorkUnit,
} from '@weak-queens/shared';
import { unitPriority } from './priority.js';

export interface SweepPlanOptions {
  readonly sweepId: string;
  readonly targetSeconds: number;
  readonly attempts: number;
  /** No unit may be estimated to need more memory than this (bytes). */
  readonly maxUnitBytes: number;
  /** Measured/estimated ratios per algorithm; none means the kernel's estimates as they are. */
  readonly calibration?: Calibration;
}

export interface PlannedSize {
  readonly n: number;
  /** The flow to add, or undefined when S(n) is already stored. */
  readonly flow?: FlowJob;
  /** Units of the whole plan, those already stored included. */
  readonly units: number;
  /** Jobs in the flow (0 when nothing is left to do). */
  readonly jobs: number;
  /** Expected single-core seconds of the whole plan (calibrated), stored work included. */
  readonly estimateSeconds: number;
}

/** A unit as the planner hands it to the queue: the kernel's unit and its expected seconds. */
export interface PlannedUnit {
  readonly unit: WorkUnit;
  /** Calibrated: the kernel's estimate times the algorithm's measured ratio. */
  readonly estimateSeconds: number;
  readonly priority: number;
}

export interface PlannedDepth {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  readonly units: readonly PlannedUnit[];
}

/** The algorithms `auto` chooses from; the seed's sorted merge is the reference, never faster. */
const CANDIDATES: readonly Algorithm[] = ['window-transfer', 'dfs'];

/**
 * Plans one (n, D): the cheapest candidate by calibrated seconds among those whose memory
 * estimate fits `maxUnitBytes` (the DFS always fits), split until no unit is expected above
 * `targetSeconds`.
 */
export function planDepth(
  n: number,
  depth: number,
  options: Pick<SweepPlanOptions, 'targetSeconds' | 'maxUnitBytes' | 'calibration'>,
  algorithm?: Algorithm,
): PlannedDepth {
  const calibration = options.calibration ?? {};
  const chosen = algorithm ?? cheapestAlgorithm(n, depth, CANDIDATES, options) ?? 'dfs';
  const ratio = calibrationRatio(calibration, chosen);
  // Estimates scale by the ratio, so "calibrated ≤ target" is "kernel estimate ≤ target / ratio".
  const units = planUnits(n, depth, {
    algorithm: chosen,
    targetSeconds: options.targetSeconds / ratio,
    maxBytes: options.maxUnitBytes,
  }).map((unit) => {
    const estimateSeconds = unit.estimate.seconds * ratio;
    return { unit, estimateSeconds, priority: unitPriority(estimateSeconds) };
  });
  return { n, depth, algorithm: chosen, units };
}

/** The candidate with the lowest calibrated cost whose whole-(n, D) memory fits the cap. */
export function cheapestAlgorithm(
  n: number,
  depth: number,
  candidates: readonly Algorithm[],
  options: Pick<SweepPlanOptions, 'maxUnitBytes' | 'calibration'>,
): Algorithm | undefined {
  let best: { algorithm: Algorithm; seconds: number } | undefined;
  for (const algorithm of candidates) {
    const estimate = estimateCost(algorithm, n, depth, []);
    // The DFS's memory does not grow with the board; the others build whole tables.
    if (algorithm !== 'dfs' && estimate.bytes > options.maxUnitBytes) continue;
    const seconds = estimate.seconds * calibrationRatio(options.calibration ?? {}, algorithm);
    if (!best || seconds < best.seconds) best = { algorithm, seconds };
  }
  return best?.algorithm;
}

/** Plans one n against what the result store holds. */
export async function planSize(
  n: number,
  store: ResultStore,
  options: SweepPlanOptions,
): Promise<PlannedSize> {
  const plans = Array.from({ length: n }, (_, depth) => planDepth(n, depth, options));
  const units = plans.reduce((t, p) => t + p.units.length, 0);
  const estimateSeconds = plans.reduce(
    (t, p) => t + p.units.reduce((s, u) => s + u.estimateSeconds, 0),
    0,
  );
  if ((await store.sums([n])).has(n)) return { n, units, jobs: 0, estimateSeconds };

  const retry: JobsOptions = {
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: 1000 },
    // A failed part makes its sum fail too, so `wq status` shows the n as failed.
    failParentOnFailure: true,
  };
  const storedDepths = await store.depths(n);
  const children: FlowJobNode[] = [];
  let jobs = 1;
  for (const plan of plans) {
    const { depth } = plan;
    if (storedDepths.has(depth)) continue;
    const only = plan.units[0];
    if (plan.units.length === 1 && only) {
      children.push({
        name: JOB_NAMES.unit,
        queueName: QUEUE_NAMES.count,
        data: unitData(only, options.sweepId, true),
        opts: { ...retry, priority: only.priority, jobId: depthJobId(n, depth) },
      });
      jobs += 1;
      continue;
    }
    const stored = await store.units(n, depth);
    const unitJobs: FlowJobNode[] = [];
    plan.units.forEach((planned, index) => {
      if (stored.has(unitKey(planned.unit.prefix))) return;
      unitJobs.push({
        name: JOB_NAMES.unit,
        queueName: QUEUE_NAMES.count,
        data: unitData(planned, options.sweepId, false),
        opts: { ...retry, priority: planned.priority, jobId: unitJobId(n, depth, index) },
      });
    });
    const depthData: DepthJobData = {
      sweepId: options.sweepId,
      n,
      depth,
      algorithm: plan.algorithm,
      unitKeys: plan.units.map((u) => unitKey(u.unit.prefix)),
    };
    children.push({
      name: JOB_NAMES.depth,
      queueName: QUEUE_NAMES.aggregate,
      data: depthData,
      opts: { ...retry, jobId: depthJobId(n, depth) },
      ...(unitJobs.length ? { children: unitJobs } : {}),
    });
    jobs += 1 + unitJobs.length;
  }
  const sumData: SumJobData = { sweepId: options.sweepId, n };
  const flow: FlowJob = {
    name: JOB_NAMES.sum,
    queueName: QUEUE_NAMES.aggregate,
    data: sumData,
    opts: { attempts: options.attempts, backoff: retry.backoff, jobId: sumJobId(n) },
    ...(children.length ? { children } : {}),
  };
  return { n, flow, units, jobs, estimateSeconds };
}

function unitData(planned: PlannedUnit, sweepId: string, whole: boolean): UnitJobData {
  const { unit } = planned;
  return {
    sweepId,
    n: unit.n,
    depth: unit.depth,
    algorithm: unit.algorithm,
    prefix: unit.prefix,
    weight: unit.weight,
    estimateSeconds: planned.estimateSeconds,
    modelSeconds: unit.estimate.seconds,
    whole,
  };
}
