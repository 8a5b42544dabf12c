// Splits one (n, D) into independent work units whose weighted counts add up to N(n, D). A DFS
// unit fixes the board's central block (its signature under the board's symmetries, see
// symmetry.ts) and maybe more rows below it; units are what workers run, each with its
// estimated cost.
import { InvalidInputError } from './errors.js';
import {
  type Algorithm,
  type AlgorithmChoice,
  chooseAlgorithm,
  countCompletions,
  type ChoiceOptions,
  type CostEstimate,
  estimateCost,
  smallDfsSeconds,
  topUnitEstimates,
} from './algorithms.js';
import {
  assertBoard,
  assertLegalUnit,
  blockedByFixed,
  fixedRows,
  fullMask,
  middleStart,
} from './board.js';
import type { ProgressCallback } from './progress.js';
import type { TransferPart } from './window-transfer.js';

export interface WorkUnit {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  /** Columns of the first rows, fixed for this unit. */
  readonly prefix: readonly number[];
  /**
   * Columns of consecutive rows from the board's centre down, middle[0] in row
   * `middleStart(n)` (n/2 − 1 for even n, (n−3)/2 for odd n); [] for none. DFS units fix the
   * central block here (2 rows for even n, 3 for odd n) and maybe more rows below it; they
   * have no prefix.
   */
  readonly middle: readonly number[];
  /**
   * How many boards each completion stands for: the size of the unit's orbit under the mirror
   * and the row reversal (see `unitWeight`), 1 for a whole (n, D).
   */
  readonly weight: 1 | 2 | 4;
  /** A window transfer of the whole (n, D) split into parts (see TransferPart); absent: whole. */
  readonly part?: TransferPart;
  /**
   * A whole window transfer that meets this many rows past the middle (see transferShape):
   * the same N(n, D) from other partial counts, for a second count. Absent: the middle.
   */
  readonly meetShift?: number;
  /**
   * A DFS unit counted as its left–right mirror image (see countCompletions): the same count by
   * other searches, for a second count. Absent: as given.
   */
  readonly mirrored?: boolean;
  readonly estimate: CostEstimate;
}

/** The memory `auto` may choose within: a slot's, and the worker's for a window transfer. */
type MemoryOptions = Pick<ChoiceOptions, 'slotMemoryBytes' | 'workerMemoryBytes'>;

export interface PlanOptions extends MemoryOptions {
  readonly algorithm?: AlgorithmChoice;
  /** Split units until none is estimated above this many single-core seconds. */
  readonly targetSeconds?: number;
  /** Never produce more units than this (splitting stops first). */
  readonly maxUnits?: number;
  /**
   * A window transfer as this many parts (2 … MAX_TRANSFER_PARTS) rather than one unit: more
   * work in all, but on as many slots at once.
   */
  readonly transferParts?: number;
  /**
   * Whether the DFS may count an (n, D) as one unit: when it fits the target, or when its
   * top-level units would be too small to pay for their jobs (see keepsWhole). Default true;
   * false: always the top-level units, split to the target (a large cluster's idle slots).
   */
  readonly wholeDfs?: boolean;
}

export const DEFAULT_MAX_UNITS = 4096;

/** Plans the units of N(n, D); their `countUnit` values sum to N(n, D). */
export function planUnits(n: number, depth: number, options: PlanOptions = {}): WorkUnit[] {
  assertBoard(n, depth);
  const target = options.targetSeconds ?? Infinity;
  if (!(target > 0)) throw new InvalidInputError('targetSeconds', target, 'a positive number');
  const maxUnits = options.maxUnits ?? DEFAULT_MAX_UNITS;
  const choice = options.algorithm ?? 'auto';
  const chosen: { algorithm: Algorithm; estimate?: CostEstimate } =
    choice === 'auto'
      ? chooseAlgorithm(n, depth, {
          slotMemoryBytes: options.slotMemoryBytes,
          workerMemoryBytes: options.workerMemoryBytes,
        })
      : { algorithm: choice };
  const { algorithm } = chosen;

  // The window transfer builds its whole table whatever the prefix, and the seed is kept as the
  // source describes it: both run as one unit (or a transfer as parts). The DFS splits freely.
  const parts = options.transferParts;
  if (algorithm === 'window-transfer' && parts !== undefined) {
    return Array.from({ length: parts }, (_, index) => {
      const part = { index, of: parts };
      return {
        n,
        depth,
        algorithm,
        prefix: [],
        middle: [],
        weight: 1 as const,
        part,
        estimate: estimateCost(algorithm, n, depth, [], [], part),
      };
    });
  }
  if (algorithm !== 'dfs') {
    return [
      {
        n,
        depth,
        algorithm,
        prefix: [],
        middle: [],
        weight: 1,
        // The choice already estimated the whole (n, D); do not probe the tree twice.
        estimate: chosen.estimate ?? estimateCost(algorithm, n, depth, []),
      },
    ];
  }
  // A search too small to split (see SMALL_DFS_SECONDS) is planned without probing its units.
  const small = options.wholeDfs === false ? undefined : smallDfsSeconds(n, depth);
  if (small !== undefined && small <= target) {
    const estimate = { seconds: small, bytes: 64 * n };
    return [{ n, depth, algorithm, prefix: [], middle: [], weight: 1, estimate }];
  }
  const unit = (prefix: readonly number[], middle: readonly number[], weight: 1 | 2 | 4) => ({
    n,
    depth,
    algorithm,
    prefix,
    middle,
    weight,
    estimate: estimateCost(algorithm, n, depth, prefix, middle),
  });
  // One unit per canonical central block (or per left-half first-row column where the block
  // scheme does not apply), weighted by its orbit.
  const units: WorkUnit[] = topUnitEstimates(n, depth).map((u) => ({
    n,
    depth,
    algorithm,
    prefix: u.prefix,
    middle: u.middle,
    weight: u.weight,
    estimate: { seconds: u.seconds, bytes: 64 * n },
  }));
  // The whole (n, D) as one unit: the DFS counts it through the same top-level units in one
  // call (countCompletions), which is what estimateCost('dfs', n, D, []) sums.
  const whole = { seconds: units.reduce((sum, u) => sum + u.estimate.seconds, 0), bytes: 64 * n };
  if (options.wholeDfs !== false && keepsWhole(whole.seconds, units.length, target)) {
    return [{ n, depth, algorithm, prefix: [], middle: [], weight: 1, estimate: whole }];
  }

  // Split the most expensive unit by the columns of the next row its search would fill (the
  // row below its fixed run) until all fit the target. Children keep the signature, so the
  // weight. A middle run stops growing at the bottom row (the rows above are searched last).
  for (;;) {
    let worst = -1;
    for (let i = 0; i < units.length; i++) {
      const u = units[i];
      if (u && u.estimate.seconds > target && splitRow(n, u) < n - (u.middle.length ? 0 : 1)) {
        if (worst < 0 || u.estimate.seconds > (units[worst]?.estimate.seconds ?? 0)) worst = i;
      }
    }
    const split = units[worst];
    if (!split) break;
    const children = nextColumns(n, depth, split).map((c) =>
      split.middle.length
        ? unit([], [...split.middle, c], split.weight)
        : unit([...split.prefix, c], [], split.weight),
    );
    if (units.length - 1 + children.length > maxUnits) break;
    units.splice(worst, 1, ...children);
  }
  return units;
}

/**
 * Below this many estimated seconds a unit is mostly what it costs to run a unit at all (a
 * queue job, a thread message, a stored result: milliseconds each), not counting.
 */
const MIN_UNIT_SECONDS = 0.05;
/**
 * How far past the target a DFS (n, D) stays one unit when its top-level units would each be
 * below MIN_UNIT_SECONDS. The target is a fraction of a slot's share of the sweep (see the
 * cluster plan), so a unit of a few targets still fits a slot's share, while hundreds of
 * millisecond units (odd n has hundreds of central blocks) cost a job each.
 */
const WHOLE_BEYOND_TARGET = 4;

/**
 * Whether a DFS (n, D) is better run as one unit than as its top-level units: when it fits the
 * target whole, or when splitting would only make units too small to pay for their jobs.
 */
function keepsWhole(wholeSeconds: number, units: number, target: number): boolean {
  if (units <= 1 || wholeSeconds <= target) return units > 1;
  return wholeSeconds / units < MIN_UNIT_SECONDS && wholeSeconds <= WHOLE_BEYOND_TARGET * target;
}

/** The row a split fixes next: the first row below the unit's fixed run. */
function splitRow(n: number, unit: WorkUnit): number {
  return unit.middle.length ? middleStart(n) + unit.middle.length : unit.prefix.length;
}

/** Columns the split row may take next to the unit's fixed rows. */
function nextColumns(n: number, depth: number, unit: WorkUnit): number[] {
  const rows = fixedRows(n, depth, unit.prefix, unit.middle);
  if (!(rows instanceof Int32Array)) return [];
  const free = ~blockedByFixed(n, depth, rows, splitRow(n, unit)) & fullMask(n);
  const columns: number[] = [];
  for (let c = 0; c < n; c++) if (free & (1 << c)) columns.push(c);
  return columns;
}

/** The unit's share of N(n, D): its completions times its weight. */
export function countUnit(unit: WorkUnit, onProgress?: ProgressCallback): bigint {
  assertLegalUnit(unit.n, unit.depth, unit.prefix, unit.middle);
  return (
    BigInt(unit.weight) *
    countCompletions(
      unit.algorithm,
      unit.n,
      unit.depth,
      unit.prefix,
      onProgress,
      unit.middle,
      unit.part,
      unit.meetShift,
      unit.mirrored,
    )
  );
}

/** N(n, D) in this thread, with progress weighted by each unit's estimated cost. */
export function countPlacements(
  n: number,
  depth: number,
  options: MemoryOptions & { algorithm?: AlgorithmChoice; onProgress?: ProgressCallback } = {},
): bigint {
  const units = planUnits(n, depth, { ...options, targetSeconds: Infinity });
  const totalCost = units.reduce((sum, u) => sum + u.estimate.seconds, 0) || 1;
  let doneCost = 0;
  let total = 0n;
  for (const u of units) {
    const share = u.estimate.seconds / totalCost;
    total += countUnit(
      u,
      options.onProgress && ((f) => options.onProgress?.(doneCost + f * share)),
    );
    doneCost += share;
    options.onProgress?.(doneCost);
  }
  return total;
}
