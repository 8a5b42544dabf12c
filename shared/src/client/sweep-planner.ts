// Turns the sizes of a sweep into BullMQ flows, one per n: S(n) ← one job per D ← units for a
// split (n, D). Work the result store already holds is left out. Each (n, D) gets the algorithm
// with the lowest calibrated cost that fits the memory cap, and each unit a queue priority from
// its expected seconds, so the largest units start first and a sweep does not end on a straggler.
import type { FlowJob, FlowJobNode, JobsOptions } from 'bullmq';
import {
  type Algorithm,
  ALGORITHMS,
  type ChoiceOptions,
  chooseAlgorithm,
  estimateCheckTransferBytes,
  estimateCost,
  planUnits,
  type WorkUnit,
} from '../kernel/index.js';
import {
  boundSeconds,
  type Calibration,
  checkJobId,
  checkUnitJobId,
  calibrationRatio,
  depthJobId,
  type DepthJobData,
  JOB_NAMES,
  planIdOf,
  type PlannedUnitRecord,
  QUEUE_NAMES,
  countQueueFor,
  sumJobId,
  type SumJobData,
  unitJobId,
  type UnitJobData,
  unitKey,
  type UnitResult,
} from '../contracts/index.js';
import type { ResultStore } from './result-store.js';
import type { PlanToRecord } from './plan-records.js';
import { provenDepths } from './stored-counts.js';
import { childJobRetry, flowJobRetry } from './flow-retry.js';
import { unitPriority } from './priority.js';
import { resumedPlan } from './resumed-plans.js';
import type { Role } from '../contracts/roles.js';

export interface SweepPlanOptions {
  readonly sweepId: string;
  readonly targetSeconds: number;
  readonly attempts: number;
  /** Slot memory: no unit on one slot may be estimated to need more than this (bytes). */
  readonly slotMemoryBytes: number;
  /**
   * Worker memory: a window transfer runs alone on all its worker's slots, so it may need up
   * to this. Default: `slotMemoryBytes`.
   */
  readonly workerMemoryBytes?: number;
  /** Measured/estimated ratios per algorithm; none means the kernel's estimates as they are. */
  readonly calibration?: Calibration;
  /** Count every (n, D) a second time with another algorithm (`wq sweep --verify`). */
  readonly verify?: boolean;
  /** `wq verify`: recount even an S(n) that was verified before (implies `verify`). */
  readonly audit?: boolean;
  /** Plans made for the cluster by `planForCluster`, by `${n}:${D}`; others are planned here. */
  readonly depthPlans?: ReadonlyMap<string, PlannedDepth>;
  /**
   * Units up to this many estimated bytes go to `count` (every live worker holds them per
   * slot); larger ones to the queue of their memory class (`countQueueFor`). Absent: all to
   * `count`.
   */
  readonly baseUnitBytes?: number;
  /**
   * Window transfers up to this many bytes go to `count` too: every live worker holds them
   * whole, alone on all its slots. Default: `baseUnitBytes`.
   */
  readonly baseTransferBytes?: number;
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
  /** `check`: the second count of a verified sweep. */
  readonly role?: 'check';
  /** A plan recorded before, whose stored units this one goes on from (see resumedPlan). */
  readonly recordedPlanId?: string;
}

/** The id a plan is recorded under (a digest of its count, algorithm and unit keys). */
function planIdOfDepth(plan: PlannedDepth): string {
  return planIdOf(
    { n: plan.n, depth: plan.depth, role: plan.role ?? 'primary', algorithm: plan.algorithm },
    plan.units.map((u) => keyOf(u.unit)),
  );
}

function keyOf(unit: WorkUnit): string {
  return unitKey(unit.prefix, unit.middle, unit.part);
}

/** A plan as it is recorded in the store, so workers count its units and nothing else. */
function planRecord(plan: PlannedDepth, planId: string): PlanToRecord {
  const units = new Map<string, PlannedUnitRecord>();
  for (const { unit, estimateSeconds } of plan.units) {
    units.set(keyOf(unit), {
      weight: unit.weight,
      modelSeconds: unit.estimate.seconds,
      boundSeconds: boundSeconds(estimateSeconds),
    });
  }
  const header = {
    n: plan.n,
    depth: plan.depth,
    role: plan.role ?? 'primary',
    algorithm: plan.algorithm,
    units: units.size,
  } as const;
  return { header, planId, units };
}

/**
 * Plans one (n, D): the cheapest candidate by calibrated seconds among those whose memory
 * estimate fits `slotMemoryBytes` (the DFS always fits), split until no unit is expected above
 * `targetSeconds`.
 */
export function planDepth(
  n: number,
  depth: number,
  options: Pick<
    SweepPlanOptions,
    'targetSeconds' | 'slotMemoryBytes' | 'workerMemoryBytes' | 'calibration'
  > & {
    /** At most this many units (the kernel's default, 4096, unless a large cluster needs more). */
    readonly maxUnits?: number;
    /** See `PlanOptions.wholeDfs` (default true). */
    readonly wholeDfs?: boolean;
  },
  algorithm?: Algorithm,
  /** A window transfer as this many parts (see `PlanOptions.transferParts`). */
  transferParts?: number,
): PlannedDepth {
  const calibration = options.calibration ?? {};
  const chosen = algorithm ?? chooseAlgorithm(n, depth, choiceOptions(options)).algorithm;
  const ratio = calibrationRatio(calibration, chosen);
  // Estimates scale by the ratio, so "calibrated ≤ target" is "kernel estimate ≤ target / ratio".
  const units = planUnits(n, depth, {
    algorithm: chosen,
    targetSeconds: options.targetSeconds / ratio,
    slotMemoryBytes: options.slotMemoryBytes,
    ...(options.maxUnits === undefined ? {} : { maxUnits: options.maxUnits }),
    ...(transferParts === undefined ? {} : { transferParts }),
    ...(options.wholeDfs === undefined ? {} : { wholeDfs: options.wholeDfs }),
  }).map((unit) => {
    const estimateSeconds = unit.estimate.seconds * ratio;
    return { unit, estimateSeconds, priority: unitPriority(estimateSeconds) };
  });
  return { n, depth, algorithm: chosen, units };
}

/** The kernel's chooser, with this cluster's memory caps and calibration. */
function choiceOptions(
  options: Pick<SweepPlanOptions, 'slotMemoryBytes' | 'workerMemoryBytes' | 'calibration'>,
): ChoiceOptions {
  const calibration = options.calibration ?? {};
  return {
    slotMemoryBytes: options.slotMemoryBytes,
    workerMemoryBytes: options.workerMemoryBytes,
    secondsScale: (algorithm) => calibrationRatio(calibration, algorithm),
  };
}

/** Plans one n against what the result store holds. */
export async function planSize(
  n: number,
  store: ResultStore,
  options: SweepPlanOptions,
): Promise<PlannedSize> {
  // Where units are stored already (counted before, or imported), the plan they belong to.
  const resumable = await store.depthsWithUnits(
    n,
    options.verify ? ['primary', 'check'] : ['primary'],
  );
  const resumed = async (depth: number, role: Role): Promise<PlannedDepth | undefined> =>
    resumable.has(`${role}:${depth}`) ? resumedPlan(store, n, depth, role, options) : undefined;
  const plans = await Promise.all(
    Array.from(
      { length: n },
      async (_, depth) =>
        (await resumed(depth, 'primary')) ??
        options.depthPlans?.get(`${n}:${depth}`) ??
        planDepth(n, depth, options),
    ),
  );
  const checkPlans = options.verify
    ? await Promise.all(
        plans.map(
          async (p) =>
            (await resumed(p.depth, 'check')) ?? planCheck(n, p.depth, p.algorithm, options),
        ),
      )
    : [];
  const everything = [...plans, ...checkPlans];
  const units = everything.reduce((t, p) => t + p.units.length, 0);
  const estimateSeconds = everything.reduce(
    (t, p) => t + p.units.reduce((s, u) => s + u.estimateSeconds, 0),
    0,
  );
  // A stored S(n) is done, unless this is a verified sweep and it was never checked: then
  // every stored N(n, D) is counted again by another algorithm and compared.
  const recount = options.audit || (options.verify && !(await store.record(n))?.checks);
  if ((await store.sums([n])).has(n) && !recount) {
    return { n, units, jobs: 0, estimateSeconds };
  }

  const retry = childJobRetry(options.attempts);
  // A stored N(n, D) is skipped only when its plan's stored units bear it out; any other is
  // counted again (a record written by hand, or whose unit records went or fail their MAC). An
  // audit (`wq verify`) keeps what is stored, so that its sum reports what disagrees.
  const stored = options.audit ? store.depths.bind(store) : provenDepths.bind(null, store);
  const storedDepths = await stored(n, 'primary');
  const storedChecks = options.verify ? await stored(n, 'check') : new Map();
  const children: FlowJobNode[] = [];
  // The n's plan records are written in one transaction (one round trip, not one per count)
  // and are all in the store before its flow is returned to be added.
  const recording: PlanToRecord[] = [];
  let jobs = 1;
  const verify = options.verify === true;
  const node = (plan: PlannedDepth, under?: FlowJobNode) =>
    countNode(
      plan,
      store,
      retry,
      options.sweepId,
      queueBases(options),
      recording,
      verify,
      resumable.has(`${plan.role ?? 'primary'}:${plan.depth}`),
      under,
    );
  for (const plan of plans) {
    const { depth } = plan;
    const primary = storedDepths.has(depth) ? undefined : await node(plan);
    if (primary) jobs += primary.jobs;
    if (!verify || storedChecks.has(depth)) {
      if (primary) children.push(primary.node);
      continue;
    }
    // The second count runs after the first (it is the first's parent, and waits for it
    // without polling). Another algorithm than the one that counted the first: the stored
    // one's, if stored, unless a second count was under way already.
    const stored = storedDepths.get(depth)?.algorithm;
    const checkPlan =
      stored === undefined || stored === plan.algorithm
        ? (checkPlans[depth] ?? planCheck(n, depth, plan.algorithm, options))
        : planCheck(n, depth, stored, options);
    const check = await node(checkPlan, primary?.node);
    if (check) {
      children.push(check.node);
      jobs += check.jobs;
    }
  }
  await store.putPlans(recording);
  const sumData: SumJobData = {
    sweepId: options.sweepId,
    n,
    ...(options.verify ? { verify: true } : {}),
  };
  const flow: FlowJob = {
    name: JOB_NAMES.sum,
    queueName: QUEUE_NAMES.aggregate,
    data: sumData,
    opts: { ...flowJobRetry(options.attempts), jobId: sumJobId(n) },
    ...(children.length ? { children } : {}),
  };
  return { n, flow, units, jobs, estimateSeconds };
}

/**
 * The second count of a verified (n, D): the cheapest algorithm other than the first's that
 * fits the memory cap, where it is affordable beside the first count. Otherwise (and where none
 * fits) the first's algorithm by another path, which the worker takes for a second count: the
 * transfer met past the middle row, the DFS over the mirror images of the units.
 */
export function planCheck(
  n: number,
  depth: number,
  primary: Algorithm,
  options: Pick<
    SweepPlanOptions,
    'targetSeconds' | 'slotMemoryBytes' | 'workerMemoryBytes' | 'calibration'
  >,
): PlannedDepth {
  const others = ALGORITHMS.filter((a) => a !== primary);
  const choice = chooseAlgorithm(n, depth, {
    ...choiceOptions(options),
    candidates: others,
    fallback: primary,
  });
  // Where another algorithm would cost far more than the first count (the DFS at the middle D
  // of a large n: hours against minutes; the transfer at large D: a minute against a second),
  // the first's algorithm counts again by another path: other partial counts.
  let algorithm = choice.algorithm;
  if (algorithm !== primary) {
    const scale = (a: Algorithm): number => calibrationRatio(options.calibration ?? {}, a);
    const first = estimateCost(primary, n, depth, []).seconds * scale(primary);
    const other = choice.estimate.seconds * scale(algorithm);
    // Met past the middle, the transfer's cells may be wider and it keeps a third vector: where
    // that does not fit a worker, the other algorithm however long it takes.
    const fits =
      primary === 'dfs' ||
      estimateCheckTransferBytes(n, depth) <=
        (options.workerMemoryBytes ?? options.slotMemoryBytes);
    if (fits && other > AFFORDABLE_CHECK_RATIO * first + affordableCheckSeconds[primary]) {
      algorithm = primary;
    }
  }
  return { ...planDepth(n, depth, options, algorithm), role: 'check' };
}

/**
 * Another algorithm counts a verified (n, D) a second time when it costs at most this many
 * times the first count, plus a few seconds (a small count is checked by another algorithm
 * whatever the ratio); otherwise the first's algorithm by another path. The DFS's other path
 * costs what its first count did, so an algorithm dearer than it has little room; the
 * transfer's costs two to four times its first, and the seed DP is the reference.
 */
const AFFORDABLE_CHECK_RATIO = 4;
const affordableCheckSeconds: Readonly<Record<Algorithm, number>> = {
  'window-transfer': 60,
  dfs: 1,
  'seed-dp': 60,
};

/** The largest units that go to `count`: on one slot, and a window transfer on all of them. */
interface QueueBases {
  readonly unit: number;
  readonly transfer: number;
}

function queueBases(options: SweepPlanOptions): QueueBases | undefined {
  const unit = options.baseUnitBytes;
  if (unit === undefined) return undefined;
  return { unit, transfer: Math.max(unit, options.baseTransferBytes ?? unit) };
}

/**
 * The jobs of one count of an (n, D): its one unit in `count`, or a `depth` sum in `aggregate`
 * over its units (those already stored left out). `under` becomes a child as well: for a second
 * count, the first one.
 */
async function countNode(
  plan: PlannedDepth,
  store: ResultStore,
  retry: JobsOptions,
  sweepId: string,
  bases: QueueBases | undefined,
  /** Gets this count's plan record, for the caller to write with the others. */
  recording: PlanToRecord[],
  /**
   * A verified sweep: unverified imports are not counted again (the second count decides on
   * them), and a count whose every unit is stored needs no job (the sum reads it).
   */
  verify: boolean,
  /** Whether any unit of this count is stored (else nothing is read). */
  storedUnits: boolean,
  under?: FlowJobNode,
): Promise<{ node: FlowJobNode; jobs: number } | undefined> {
  const queueOf = (planned: PlannedUnit): string =>
    bases === undefined
      ? QUEUE_NAMES.count
      : countQueueFor(
          planned.unit.estimate.bytes,
          planned.unit.algorithm === 'window-transfer' ? bases.transfer : bases.unit,
        );
  const { n, depth, role } = plan;
  const check = role === 'check';
  const id = check ? checkJobId(n, depth) : depthJobId(n, depth);
  const below = under ? [under] : [];
  const planId = plan.recordedPlanId ?? planIdOfDepth(plan);
  if (plan.recordedPlanId === undefined) recording.push(planRecord(plan, planId));
  // Only a first count's imports wait for a second count to vouch for them; a second count
  // is always this store's own.
  // A record that does not parse is left to the unit's job, which counts it again.
  const stored = storedUnits
    ? await store
        .units(n, depth, role ?? 'primary', { pending: verify && !check })
        .catch(() => new Map<string, UnitResult>())
    : new Map<string, UnitResult>();
  if (
    [...stored.values()].some((u) => u.unverified) &&
    plan.units.every((u) => stored.has(keyOf(u.unit)))
  ) {
    return undefined;
  }
  const only = plan.units[0];
  if (plan.units.length === 1 && only) {
    return {
      node: {
        name: JOB_NAMES.unit,
        queueName: queueOf(only),
        data: unitData(only, sweepId, planId, true, role),
        opts: { ...retry, priority: only.priority, jobId: id },
        ...(below.length ? { children: below } : {}),
      },
      jobs: 1,
    };
  }
  const unitJobs: FlowJobNode[] = [];
  plan.units.forEach((planned, index) => {
    if (stored.has(keyOf(planned.unit))) return;
    unitJobs.push({
      name: JOB_NAMES.unit,
      queueName: queueOf(planned),
      data: unitData(planned, sweepId, planId, false, role),
      opts: {
        ...retry,
        priority: planned.priority,
        jobId: check ? checkUnitJobId(n, depth, planId, index) : unitJobId(n, depth, planId, index),
      },
    });
  });
  const data: DepthJobData = {
    sweepId,
    n,
    depth,
    algorithm: plan.algorithm,
    unitKeys: plan.units.map((u) => keyOf(u.unit)),
    planId,
    ...(role ? { role } : {}),
  };
  const nodes = [...unitJobs, ...below];
  return {
    node: {
      name: JOB_NAMES.depth,
      queueName: QUEUE_NAMES.aggregate,
      data,
      opts: { ...retry, jobId: id },
      ...(nodes.length ? { children: nodes } : {}),
    },
    jobs: 1 + unitJobs.length,
  };
}

function unitData(
  planned: PlannedUnit,
  sweepId: string,
  planId: string,
  whole: boolean,
  role?: 'check',
): UnitJobData {
  const { unit } = planned;
  return {
    sweepId,
    n: unit.n,
    depth: unit.depth,
    algorithm: unit.algorithm,
    prefix: unit.prefix,
    ...(unit.middle.length > 0 ? { middle: unit.middle } : {}),
    ...(unit.part ? { part: unit.part } : {}),
    weight: unit.weight,
    planId,
    estimateSeconds: planned.estimateSeconds,
    modelSeconds: unit.estimate.seconds,
    bytes: Math.ceil(unit.estimate.bytes),
    whole,
    ...(role ? { role } : {}),
  };
}
