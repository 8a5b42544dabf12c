// Splits one (n, D) into independent work units (fixed columns for the first rows) whose
// counts add up to N(n, D). Units are what workers run; each carries its estimated cost.
import { InvalidInputError } from '../errors.js';
import {
  type Algorithm,
  type AlgorithmChoice,
  chooseAlgorithm,
  countCompletions,
  type CostEstimate,
  DEFAULT_MAX_BYTES,
  estimateCost,
} from './algorithms.js';
import { assertBoard, assertLegalPrefix, blockedInRow, fullMask } from './board.js';
import type { ProgressCallback } from './progress.js';

export interface WorkUnit {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  /** Columns of the first rows, fixed for this unit. */
  readonly prefix: readonly number[];
  /** 2 when the unit also stands for its mirror image (column c ↔ n−1−c), else 1. */
  readonly weight: 1 | 2;
  readonly estimate: CostEstimate;
}

export interface PlanOptions {
  readonly algorithm?: AlgorithmChoice;
  /** Split units until none is estimated above this many single-core seconds. */
  readonly targetSeconds?: number;
  /** Never produce more units than this (splitting stops first). */
  readonly maxUnits?: number;
  /** Memory cap for the `auto` choice. */
  readonly maxBytes?: number;
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
      ? chooseAlgorithm(n, depth, { maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES })
      : { algorithm: choice };
  const { algorithm } = chosen;

  // The window transfer builds its whole table whatever the prefix, and the seed is kept as the
  // source describes it: both run as one unit. The DFS splits freely.
  if (algorithm !== 'dfs') {
    return [
      {
        n,
        depth,
        algorithm,
        prefix: [],
        weight: 1,
        // The choice already estimated the whole (n, D); do not probe the tree twice.
        estimate: chosen.estimate ?? estimateCost(algorithm, n, depth, []),
      },
    ];
  }
  const unit = (prefix: number[], weight: 1 | 2): WorkUnit => ({
    n,
    depth,
    algorithm,
    prefix,
    weight,
    estimate: estimateCost(algorithm, n, depth, prefix),
  });
  // Mirror halving: count first-row columns in the left half twice, the middle one once.
  const units: WorkUnit[] = [];
  for (let c = 0; c < Math.floor(n / 2); c++) units.push(unit([c], 2));
  if (n % 2 === 1) units.push(unit([(n - 1) / 2], 1));

  // Split the most expensive unit by the columns of its next row until all fit the target.
  for (;;) {
    let worst = -1;
    for (let i = 0; i < units.length; i++) {
      const u = units[i];
      if (u && u.estimate.seconds > target && u.prefix.length < n - 1) {
        if (worst < 0 || u.estimate.seconds > (units[worst]?.estimate.seconds ?? 0)) worst = i;
      }
    }
    const split = units[worst];
    if (!split) break;
    const children = nextColumns(n, depth, split.prefix).map((c) =>
      unit([...split.prefix, c], split.weight),
    );
    if (units.length - 1 + children.length > maxUnits) break;
    units.splice(worst, 1, ...children);
  }
  return units;
}

/**
 * The weight a unit with these first rows must carry in a plan of `planUnits`, or 0 when no
 * plan has such a unit. Workers use it to refuse a unit whose weight does not follow from its
 * rows: a count times the wrong weight is a wrong N(n, D). Mirror halving: a whole (n, D) (no
 * prefix) counts once; otherwise the first row's left half counts twice, the middle column of
 * an odd board once, and the right half belongs to no plan.
 */
export function unitWeight(
  n: number,
  depth: number,
  prefix: readonly number[],
  suffix: readonly number[] = [],
): 0 | 1 | 2 | 4 {
  assertBoard(n, depth);
  if (suffix.length > 0) return 0;
  const first = prefix[0];
  if (first === undefined) return 1;
  if (2 * first + 1 < n) return 2;
  return 2 * first + 1 === n ? 1 : 0;
}

function nextColumns(n: number, depth: number, prefix: readonly number[]): number[] {
  const free = ~blockedInRow(n, depth, prefix, prefix.length) & fullMask(n);
  const columns: number[] = [];
  for (let c = 0; c < n; c++) if (free & (1 << c)) columns.push(c);
  return columns;
}

/** The unit's share of N(n, D): its completions times its mirror weight. */
export function countUnit(unit: WorkUnit, onProgress?: ProgressCallback): bigint {
  assertLegalPrefix(unit.n, unit.depth, unit.prefix);
  return (
    BigInt(unit.weight) *
    countCompletions(unit.algorithm, unit.n, unit.depth, unit.prefix, onProgress)
  );
}

/** N(n, D) in this thread, with progress weighted by each unit's estimated cost. */
export function countPlacements(
  n: number,
  depth: number,
  options: { algorithm?: AlgorithmChoice; onProgress?: ProgressCallback; maxBytes?: number } = {},
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
