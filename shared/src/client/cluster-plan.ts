// Plans a sweep for a cluster: per (n, D) the algorithm and unit size that minimise the
// estimated makespan on these workers, not only the total work. The transfer matrix does the
// least work but is one unit on one slot; the DFS does more work but splits over every slot.
// The makespan is simulated the way the queue runs units: largest expected seconds first, each
// on the slot that frees up first.
import {
  type Algorithm,
  DEFAULT_MAX_UNITS,
  estimateCost,
  estimateTransferWindows,
  PLANNED_TRANSFER_WINDOWS,
} from '../kernel/index.js';
import { type Calibration, calibrationRatio, type MemoryBudget } from '../contracts/index.js';
import { planDepth, type PlannedDepth } from './sweep-planner.js';

/** Workers all alike: `workers` machines (processes) of `slots` slots each. */
export interface ClusterDescription {
  readonly workers: number;
  readonly slots: number;
  /**
   * Worker memory (WQ_WORKER_MEMORY): a window transfer, which runs alone on all its slots,
   * may use all of it.
   */
  readonly workerMemoryBytes: number;
  /** Slot memory (WQ_SLOT_MEMORY): any other unit's. Default: workerMemoryBytes ÷ slots. */
  readonly slotMemoryBytes?: number;
}

/**
 * What a unit may use on one of these workers: its slot memory, and for a window transfer
 * (alone on all the worker's slots) the worker's memory, never less than a slot's.
 */
export function clusterMemory(cluster: ClusterDescription): MemoryBudget {
  const slotMemoryBytes = cluster.slotMemoryBytes ?? cluster.workerMemoryBytes / cluster.slots;
  return {
    slotMemoryBytes,
    workerMemoryBytes: Math.max(slotMemoryBytes, cluster.workerMemoryBytes),
  };
}

export interface ClusterPlanOptions {
  /** The largest unit size wanted (single-core seconds); smaller when the cluster is large. */
  readonly targetSeconds: number;
  readonly calibration?: Calibration;
  /** Told the share of (n, D) planned so far (both passes), for a long plan's progress. */
  readonly onProgress?: (fraction: number) => void;
}

export interface DepthPlanSummary {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  readonly units: number;
  /** Peak memory of its largest unit (bytes). */
  readonly bytes: number;
  /** Expected single-core seconds of all its units (calibrated). */
  readonly coreSeconds: number;
  readonly longestUnitSeconds: number;
  /**
   * Set when the window transfer would be the cheaper count but its table does not fit a
   * worker's memory: what it would need and cost, and the cap it exceeds. The plan then says
   * what it chose instead (the algorithm above) before anything runs.
   */
  readonly transferDoesNotFit?: {
    readonly bytes: number;
    readonly coreSeconds: number;
    /** The worker memory it exceeds. */
    readonly workerMemoryBytes: number;
  };
  /**
   * Set when the window transfer would be the cheaper count but its table has more windows
   * than the transfer can index (estimated; PLANNED_TRANSFER_WINDOWS), whatever the memory.
   */
  readonly transferTooManyWindows?: {
    readonly windows: number;
    readonly maxWindows: number;
    readonly coreSeconds: number;
  };
}

export interface SizePlanSummary {
  readonly n: number;
  readonly units: number;
  readonly coreSeconds: number;
  readonly depths: readonly DepthPlanSummary[];
}

export interface ClusterPlan {
  readonly cluster: ClusterDescription;
  readonly targetSeconds: number;
  readonly sizes: readonly SizePlanSummary[];
  /** The plans themselves, by `${n}:${D}`, for the submission to use. */
  readonly depthPlans: ReadonlyMap<string, PlannedDepth>;
  readonly coreSeconds: number;
  readonly makespanSeconds: number;
  /** core-seconds ÷ (slots × makespan): the share of the cluster kept busy. */
  readonly efficiency: number;
}

/** Units per slot the unit size aims at, so the last units to finish are small ones. */
const UNITS_PER_SLOT = 6;
/** The numbers of parts a window transfer that bounds the makespan is tried as. */
const TRANSFER_PARTS = [2, 4, 8];
/** Units smaller than this are mostly queue overhead. */
const MIN_TARGET_SECONDS = 0.5;
/** About what a unit's job costs beside its count: queue, thread message, stored result. */
const JOB_SECONDS = 0.01;

export function planForCluster(
  ns: readonly number[],
  cluster: ClusterDescription,
  options: ClusterPlanOptions,
): ClusterPlan {
  const slots = cluster.workers * cluster.slots;
  // A window transfer runs alone on all of a worker's slots (a team of threads on one table):
  // it may use the whole worker's memory, so a table that needs most of a machine gets it.
  const memory = clusterMemory(cluster);
  // Enough units per (n, D) that one (n, D) alone could keep every slot busy several times.
  const maxUnits = Math.max(DEFAULT_MAX_UNITS, slots * 4 * UNITS_PER_SLOT);
  const base = {
    calibration: options.calibration ?? {},
    ...memory,
    maxUnits,
  };
  const depths = ns.flatMap((n) => Array.from({ length: n }, (_, depth) => ({ n, depth })));

  // First the least total work, at the requested unit size, to learn the sweep's size.
  const first = new Map<string, PlannedDepth>();
  for (const { n, depth } of depths) {
    options.onProgress?.(first.size / (2 * depths.length));
    first.set(
      key(n, depth),
      planDepth(n, depth, { ...base, targetSeconds: options.targetSeconds }),
    );
  }
  const total = sumSeconds([...first.values()]);
  // Then units small enough that every slot gets several.
  const targetSeconds = Math.min(
    options.targetSeconds,
    Math.max(MIN_TARGET_SECONDS, total / (slots * UNITS_PER_SLOT)),
  );
  const plans = new Map<string, PlannedDepth>();
  for (const { n, depth } of depths) {
    options.onProgress?.((depths.length + plans.size) / (2 * depths.length));
    // The kernel's chooser picks, with the cluster's memory cap and calibration.
    plans.set(key(n, depth), planDepth(n, depth, { ...base, targetSeconds }));
  }

  // A unit that does not split and runs longer than the cluster's fair share bounds the
  // makespan: spread that (n, D) when that ends the sweep sooner, as transfer parts (each does
  // every step, only the final pairing is split: a little shorter each, much more work in all)
  // or over every slot with the DFS (more work, but in small units), whichever is best.
  let makespan = simulateMakespan(allUnitSeconds(plans), slots);
  const tried = new Set<string>();
  for (;;) {
    const longest = longestUnsplit(plans, tried);
    const fairShare = sumSeconds([...plans.values()]) / slots;
    // A spread ends the sweep at most `longest − fairShare` sooner. Below a job's own cost that
    // is no gain at all (the simulation counts no job's cost, so it would take one), and
    // trying reads the DFS's table of top-level units: 5 ms of a sweep of n ≤ 12.
    if (!longest || longest.seconds - fairShare < JOB_SECONDS) break;
    tried.add(longest.key);
    const current = plans.get(longest.key);
    if (!current) break;
    const options = { ...base, targetSeconds };
    const spreads = [
      ...(current.algorithm === 'window-transfer'
        ? TRANSFER_PARTS.filter((parts) => parts <= slots).map((parts) =>
            planDepth(current.n, current.depth, options, 'window-transfer', parts),
          )
        : []),
      // The DFS as its top-level units at least (a small (n, D) is otherwise one unit).
      planDepth(current.n, current.depth, { ...options, wholeDfs: false }, 'dfs'),
    ];
    for (const spread of spreads) {
      const trial = new Map(plans).set(longest.key, spread);
      const trialMakespan = simulateMakespan(allUnitSeconds(trial), slots);
      if (trialMakespan < makespan) {
        plans.set(longest.key, spread);
        makespan = trialMakespan;
      }
    }
  }

  const sizes = ns.map((n) => {
    const summaries = Array.from({ length: n }, (_, depth) =>
      withTransferFit(
        summarize(plans.get(key(n, depth))),
        memory.workerMemoryBytes,
        options.calibration,
      ),
    );
    return {
      n,
      units: summaries.reduce((t, d) => t + d.units, 0),
      coreSeconds: summaries.reduce((t, d) => t + d.coreSeconds, 0),
      depths: summaries,
    };
  });
  const coreSeconds = sizes.reduce((t, s) => t + s.coreSeconds, 0);
  return {
    cluster,
    targetSeconds,
    sizes,
    depthPlans: plans,
    coreSeconds,
    makespanSeconds: makespan,
    efficiency: makespan > 0 ? coreSeconds / (slots * makespan) : 1,
  };
}

/**
 * The makespan of running these unit times on `slots` slots, largest first, each on the slot
 * that frees up first (what BullMQ priorities by expected seconds do).
 */
export function simulateMakespan(unitSeconds: readonly number[], slots: number): number {
  return replayMakespan(
    unitSeconds.map((seconds) => ({ seconds, estimateSeconds: seconds })),
    slots,
  );
}

/** A unit as a run recorded it: the seconds it took and the seconds it was expected to take. */
export interface RecordedUnit {
  readonly seconds: number;
  readonly estimateSeconds: number;
}

/**
 * The makespan of a recorded run's units replayed on `slots` slots in the queue's order (the
 * largest expected first, each on the slot that frees up first), each taking the seconds it
 * really took: the run as a larger cluster would have seen it, estimation errors included.
 */
export function replayMakespan(units: readonly RecordedUnit[], slots: number): number {
  const ordered = [...units].sort((a, b) => b.estimateSeconds - a.estimateSeconds);
  // A binary heap of slot finish times: O(units · log slots), fine for 10^6 units.
  const heap = new Float64Array(Math.max(1, slots));
  let makespan = 0;
  for (const { seconds } of ordered) {
    const end = (heap[0] ?? 0) + seconds;
    makespan = Math.max(makespan, end);
    heap[0] = end;
    siftDown(heap);
  }
  return makespan;
}

function siftDown(heap: Float64Array): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let smallest = i;
    if (l < heap.length && heap[l]! < heap[smallest]!) smallest = l;
    if (r < heap.length && heap[r]! < heap[smallest]!) smallest = r;
    if (smallest === i) return;
    [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
    i = smallest;
  }
}

function key(n: number, depth: number): string {
  return `${n}:${depth}`;
}

/**
 * What a unit job costs a worker besides its count: fetched, locked, checked against its plan,
 * its result stored and its parent moved on. Measured: 0.55 s of worker CPU for the 90 jobs of
 * a sweep of n = 1…12 on two workers (/proc/<pid>/stat), about 6 ms each. A spread that makes
 * thousands of millisecond units (n = 13, D = 7 as its 260 central blocks) costs more in jobs
 * than it saves in makespan.
 */
const UNIT_JOB_SECONDS = 0.006;

/** Each unit's seconds on a slot: its count and its job. */
function allUnitSeconds(plans: ReadonlyMap<string, PlannedDepth>): number[] {
  return [...plans.values()].flatMap((p) =>
    p.units.map((u) => u.estimateSeconds + UNIT_JOB_SECONDS),
  );
}

function sumSeconds(plans: readonly PlannedDepth[]): number {
  return plans.reduce((t, p) => t + p.units.reduce((s, u) => s + u.estimateSeconds, 0), 0);
}

function longestUnsplit(
  plans: ReadonlyMap<string, PlannedDepth>,
  tried: ReadonlySet<string>,
): { key: string; seconds: number } | undefined {
  let best: { key: string; seconds: number } | undefined;
  for (const [k, plan] of plans) {
    if (tried.has(k) || plan.units.length !== 1) continue;
    const seconds = plan.units[0]?.estimateSeconds ?? 0;
    if (!best || seconds > best.seconds) best = { key: k, seconds };
  }
  return best;
}

function summarize(plan: PlannedDepth | undefined): DepthPlanSummary {
  if (!plan) throw new Error('every (n, D) of the sweep is planned');
  return {
    n: plan.n,
    depth: plan.depth,
    algorithm: plan.algorithm,
    units: plan.units.length,
    // Loops, not spreads: a plan may have more units than a call may have arguments.
    bytes: plan.units.reduce((m, u) => Math.max(m, u.unit.estimate.bytes), 0),
    coreSeconds: plan.units.reduce((t, u) => t + u.estimateSeconds, 0),
    longestUnitSeconds: plan.units.reduce((m, u) => Math.max(m, u.estimateSeconds), 0),
  };
}

/**
 * Notes on a DFS-counted (n, D) whose window transfer would be cheaper but has too many windows
 * or does not fit the memory a worker gives it, so that the plan says so (and what each costs)
 * before it runs.
 */
function withTransferFit(
  summary: DepthPlanSummary,
  workerMemoryBytes: number,
  calibration: Calibration | undefined,
): DepthPlanSummary {
  if (summary.algorithm !== 'dfs' || summary.depth === 0) return summary;
  const transfer = estimateCost('window-transfer', summary.n, summary.depth, []);
  const coreSeconds = transfer.seconds * calibrationRatio(calibration ?? {}, 'window-transfer');
  if (coreSeconds >= summary.coreSeconds) return summary;
  const windows = estimateTransferWindows(summary.n, summary.depth);
  if (windows > PLANNED_TRANSFER_WINDOWS) {
    return {
      ...summary,
      transferTooManyWindows: { windows, maxWindows: PLANNED_TRANSFER_WINDOWS, coreSeconds },
    };
  }
  if (transfer.bytes <= workerMemoryBytes) return summary;
  return {
    ...summary,
    transferDoesNotFit: { bytes: transfer.bytes, coreSeconds, workerMemoryBytes },
  };
}
