// The flow of one classic n: a `classic-sum` job (`c16`) in `aggregate` over a `classic-unit`
// job per unit not yet stored (`c16-3.7`), and in a verified sweep a second count of a
// sample of units by the other method (`c16-v-3.7`). Same queues, retention and retry
// policy as the weak flows; only the names, ids and data differ.
import type { FlowJob, FlowJobNode } from 'bullmq';
import {
  CLASSIC_JOB_NAMES,
  type ClassicSumJobData,
  type ClassicUnitJobData,
  classicSumJobId,
  classicUnitJobId,
} from '../contracts/classic-jobs.js';
import { QUEUE_NAMES } from '../contracts/queues.js';
import { InvalidInputError } from '../kernel/errors.js';
import { type ClassicUnit, classicUnitKey, classicUnits } from '../kernel/classic-units.js';
import type { ClassicResultStore } from './classic-result-store.js';
import { childJobRetry, flowJobRetry } from './flow-retry.js';

export interface ClassicPlanOptions {
  readonly sweepId: string;
  readonly attempts: number;
  /** Count a sample of units a second time by the other method. */
  readonly verify?: boolean;
  /** How many units the sample holds (evenly spread; default every unit). */
  readonly sample?: number;
  /**
   * The slots of the workers that will count the units (Σ of their concurrency). Where the
   * units outnumber JOBS_PER_SLOT jobs a slot, runs of them go as one job (see batchUnits);
   * absent, every unit is a job of its own.
   */
  readonly slots?: number;
}

/**
 * Jobs a slot gets before units are batched: enough for the queue's largest-first-ish order
 * (the units come heaviest row-0 columns first, lightest last) to even out the slots' ends.
 */
export const JOBS_PER_SLOT = 8;

/**
 * The units in jobs: runs of consecutive units with the same row-0 column (similar sizes), at
 * most ⌈units ÷ (JOBS_PER_SLOT × slots)⌉ in one. Why batch at all: a job costs a worker a few
 * milliseconds of queue and store round trips, and the units of Q(16) and below take tens of
 * milliseconds; with many slots (or few units) each unit stays a job of its own.
 */
export function batchUnits(
  units: readonly ClassicUnit[],
  slots: number,
  /** Units that must stay jobs of their own. */
  alone: (unit: ClassicUnit) => boolean = () => false,
): ClassicUnit[][] {
  if (!Number.isInteger(slots) || slots < 1) {
    throw new InvalidInputError('slots', slots, 'a whole number of slots ≥ 1');
  }
  const most = Math.max(1, Math.ceil(units.length / (JOBS_PER_SLOT * slots)));
  const batches: ClassicUnit[][] = [];
  // A run: consecutive units of one row-0 column, none of them alone; cut in even pieces.
  let run: ClassicUnit[] = [];
  const endRun = (): void => {
    const pieces = Math.ceil(run.length / most);
    for (let i = 0, from = 0; i < pieces; i++) {
      const to = Math.round(((i + 1) * run.length) / pieces);
      batches.push(run.slice(from, to));
      from = to;
    }
    run = [];
  };
  for (const unit of units) {
    if (run[0] && (alone(unit) || run[0].first !== unit.first)) endRun();
    if (alone(unit)) batches.push([unit]);
    else run.push(unit);
  }
  endRun();
  return batches;
}

export interface PlannedClassic {
  readonly n: number;
  /** Absent when Q(n) is stored (and, for a verified sweep, was checked). */
  readonly flow?: FlowJob;
  readonly units: number;
  readonly jobs: number;
}

/** The units of the sample: `size` of `keys`, evenly spread, first and last included. */
export function sampleUnits(keys: readonly string[], size: number): string[] {
  if (!Number.isInteger(size) || size < 1) {
    throw new InvalidInputError('sample', size, 'a whole number of units ≥ 1');
  }
  if (size >= keys.length) return [...keys];
  const picked = new Set<string>();
  for (let i = 0; i < size; i++) {
    const index = size === 1 ? 0 : Math.round((i * (keys.length - 1)) / (size - 1));
    picked.add(keys[index] as string);
  }
  return [...picked];
}

export async function planClassic(
  n: number,
  store: ClassicResultStore,
  options: ClassicPlanOptions,
): Promise<PlannedClassic> {
  const units = classicUnits(n);
  const keys = units.map(classicUnitKey);
  const checkKeys = options.verify ? sampleUnits(keys, options.sample ?? keys.length) : [];
  const stored = (await store.results([n])).get(n);
  if (stored && (!options.verify || stored.checked >= checkKeys.length)) {
    return { n, units: keys.length, jobs: 0 };
  }
  const retry = childJobRetry(options.attempts);
  const storedUnits = await store.units(n);
  const storedChecks = options.verify ? await store.units(n, 'check') : new Map();
  const sampled = new Set(checkKeys);
  // A job counts one unit, or (a batch) several in turn, `unit` the first.
  const node = (batch: readonly string[], role?: 'check'): FlowJobNode => {
    const key = batch[0] as string;
    const data: ClassicUnitJobData = {
      problem: 'classic',
      sweepId: options.sweepId,
      n,
      unit: key,
      // The second count walks every board of the unit and classifies it from its images.
      method: role === 'check' ? 'images' : 'pruned',
      ...(role ? { role } : {}),
      // A first count with a second count: the two look for each other's worker.
      ...(!role && sampled.has(key) ? { paired: true as const } : {}),
      ...(batch.length > 1 ? { batch: [...batch] } : {}),
    };
    return {
      name: CLASSIC_JOB_NAMES.unit,
      queueName: QUEUE_NAMES.count,
      data,
      opts: { ...retry, jobId: classicUnitJobId(n, key, role, batch.length) },
    };
  };
  // Units counted twice stay jobs of their own: their two counts look for two workers.
  const batches = batchUnits(
    units.filter((u) => !storedUnits.has(classicUnitKey(u))),
    options.slots ?? Number.MAX_SAFE_INTEGER,
    (u) => sampled.has(classicUnitKey(u)),
  );
  const children = [
    ...batches.map((batch) => node(batch.map(classicUnitKey))),
    ...checkKeys.filter((k) => !storedChecks.has(k)).map((k) => node([k], 'check')),
  ];
  const data: ClassicSumJobData = {
    problem: 'classic',
    sweepId: options.sweepId,
    n,
    unitKeys: keys,
    ...(options.verify ? { checkKeys } : {}),
  };
  const flow: FlowJob = {
    name: CLASSIC_JOB_NAMES.sum,
    queueName: QUEUE_NAMES.aggregate,
    data,
    opts: { ...flowJobRetry(options.attempts), jobId: classicSumJobId(n) },
    ...(children.length ? { children } : {}),
  };
  return { n, flow, units: keys.length, jobs: 1 + children.length };
}
