// Queue priorities from expected seconds: the most expensive unit is taken first, down to
// units below FIFO_BELOW_SECONDS, which share one priority and go in the order they came.
//
// BullMQ takes the lowest number first; 1 is the highest priority and 2^21 − 1 the lowest
// (0 means "no priority" and would run before every prioritized job). Costs span many orders of
// magnitude, so the scale is logarithmic: 10^6 s and above map to 1, and every factor of 10
// less costs PRIORITY_PER_DECADE, which keeps units 1% apart in cost in different buckets.

export const PRIORITY_LIMIT = 2 ** 21 - 1;
const PRIORITY_PER_DECADE = 100_000;
const LOG10_MAX_SECONDS = 6;

/**
 * Below this a unit's count costs less than its job (about 6 ms of worker CPU), so ordering such
 * units by their cost buys nothing; taken in the order they were added (ascending n), each small
 * n completes, and its sum job runs, while the larger units count. Ranked by cost, the smallest n
 * came last and their sums were a sweep's tail (measured in docs/costs.md).
 */
const FIFO_BELOW_SECONDS = 0.01;

export function unitPriority(seconds: number): number {
  // Nothing to go by (0, NaN): last.
  if (!(seconds > 0)) return PRIORITY_LIMIT;
  const log = Math.log10(Math.max(seconds, FIFO_BELOW_SECONDS));
  const steps = Math.round((LOG10_MAX_SECONDS - log) * PRIORITY_PER_DECADE);
  return Math.min(PRIORITY_LIMIT, Math.max(1, 1 + steps));
}
