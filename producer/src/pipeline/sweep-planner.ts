// Turns the sizes of a sweep into BullMQ flows, one per n: S(n) ← one job per D ← units for a
// split (n, D). Work the result store already holds is left out.
import type { FlowJob, FlowJobNode, JobsOptions } from 'bullmq';
import {
  depthJobId,
  type DepthJobData,
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

export interface SweepPlanOptions {
  readonly sweepId: string;
  readonly targetSeconds: number;
  readonly attempts: number;
}

export interface PlannedSize {
  readonly n: number;
  /** The flow to add, or undefined when S(n) is already stored. */
  readonly flow?: FlowJob;
  /** Units of the whole plan, those already stored included. */
  readonly units: number;
  /** Jobs in the flow (0 when nothing is left to do). */
  readonly jobs: number;
}

/** Plans one n against what the result store holds. */
export async function planSize(
  n: number,
  store: ResultStore,
  options: SweepPlanOptions,
): Promise<PlannedSize> {
  const unitCount = (d: number): number =>
    planUnits(n, d, { targetSeconds: options.targetSeconds }).length;
  if ((await store.sums([n])).has(n)) {
    let units = 0;
    for (let d = 0; d < n; d++) units += unitCount(d);
    return { n, units, jobs: 0 };
  }
  const retry: JobsOptions = {
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: 1000 },
    // A failed part makes its sum fail too, so `wq status` shows the n as failed.
    failParentOnFailure: true,
  };
  const storedDepths = await store.depths(n);
  const children: FlowJobNode[] = [];
  let units = 0;
  let jobs = 1;
  for (let depth = 0; depth < n; depth++) {
    const plan = planUnits(n, depth, { targetSeconds: options.targetSeconds });
    units += plan.length;
    if (storedDepths.has(depth)) continue;
    const only = plan[0];
    if (plan.length === 1 && only) {
      children.push({
        name: JOB_NAMES.unit,
        queueName: QUEUE_NAMES.count,
        data: unitData(only, options.sweepId, true),
        opts: { ...retry, jobId: depthJobId(n, depth) },
      });
      jobs += 1;
      continue;
    }
    const stored = await store.units(n, depth);
    const unitJobs: FlowJobNode[] = [];
    plan.forEach((unit, index) => {
      if (stored.has(unitKey(unit.prefix))) return;
      unitJobs.push({
        name: JOB_NAMES.unit,
        queueName: QUEUE_NAMES.count,
        data: unitData(unit, options.sweepId, false),
        opts: { ...retry, jobId: unitJobId(n, depth, index) },
      });
    });
    const depthData: DepthJobData = {
      sweepId: options.sweepId,
      n,
      depth,
      algorithm: plan[0]?.algorithm ?? 'dfs',
      unitKeys: plan.map((u) => unitKey(u.prefix)),
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
  return { n, flow, units, jobs };
}

function unitData(unit: WorkUnit, sweepId: string, whole: boolean): UnitJobData {
  return {
    sweepId,
    n: unit.n,
    depth: unit.depth,
    algorithm: unit.algorithm,
    prefix: unit.prefix,
    weight: unit.weight,
    estimateSeconds: unit.estimate.seconds,
    whole,
  };
}
