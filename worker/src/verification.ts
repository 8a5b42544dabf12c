// Verified sweeps: where the second count of an (n, D) finds the first, the comparison the sum
// makes before publishing S(n), and where a classic unit's second count should go.
import { type DepthMismatch, type DepthResult, knownValue } from '@weak-queens/shared/contracts';
import { type ResultStore, type WorkerInfo } from '@weak-queens/shared/client';

/**
 * The first count of (n, D) as the second count's job sees it: from the result store (it is the
 * second count's child, so it is stored by then), never from a child's return value.
 */
export async function firstCount(
  n: number,
  depth: number,
  store: ResultStore,
): Promise<DepthResult | undefined> {
  return (await store.depths(n)).get(depth);
}

/**
 * How long a classic unit's second count waits before another worker may take it, and how
 * often at most: two minutes in all. The other worker may be in the middle of long counts (a
 * second count of a unit of Q(16) by its images takes seconds, several can queue ahead).
 * Classic sweeps check a small sample of units this way; a weak sweep's second count of an
 * (n, D) is independent by its algorithm and never waits for a particular worker.
 */
export const DEFER_MS = 250;
export const MAX_DEFERRALS = 480;

/**
 * True when this worker counted (part of) the first count and another live worker could do the
 * second one instead. Bounded by the caller: after MAX_DEFERRALS it counts it itself.
 */
export function isBetterElsewhere(
  workerId: string,
  firstWorkers: readonly string[],
  live: readonly WorkerInfo[],
): boolean {
  return firstWorkers.includes(workerId) && live.some((w) => !firstWorkers.includes(w.id));
}

/**
 * Every D whose first count disagrees with its second count or with a published value. An
 * empty list means S(n) may be published.
 */
export function disagreements(
  firsts: readonly DepthResult[],
  checks: ReadonlyMap<number, DepthResult> | undefined,
): DepthMismatch[] {
  const found: DepthMismatch[] = [];
  for (const first of firsts) {
    const base = {
      depth: first.depth,
      value: first.value,
      algorithm: first.algorithm,
      workers: first.workers,
    };
    const check = checks?.get(first.depth);
    if (check && check.value !== first.value) {
      found.push({
        ...base,
        expected: check.value,
        expectedFrom: check.algorithm,
        expectedWorkers: check.workers,
      });
      continue;
    }
    const known = knownValue(first.n, first.depth);
    if (known && known.value !== first.value) {
      found.push({ ...base, expected: known.value, expectedFrom: known.source });
    }
  }
  return found;
}

/** `N(7, 2): window-transfer counted 3209, seed-dp counted 3208` (or `the reference n^n is …`). */
export function describeMismatch(n: number, m: DepthMismatch): string {
  const other = m.expectedWorkers
    ? `${m.expectedFrom} counted ${m.expected}`
    : `the reference ${m.expectedFrom} is ${m.expected}`;
  return `N(${n}, ${m.depth}): ${m.algorithm} counted ${m.value}, ${other}`;
}
