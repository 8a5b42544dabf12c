// Queue priorities from expected seconds: the most expensive unit is taken first.
//
// BullMQ takes the lowest number first; 1 is the highest priority and 2^21 − 1 the lowest
// (0 means "no priority" and would run before every prioritized job). Costs span many orders of
// magnitude, so the scale is logarithmic: 10^6 s and above map to 1, and every factor of 10
// less costs PRIORITY_PER_DECADE, which keeps units 1% apart in cost in different buckets.

export const PRIORITY_LIMIT = 2 ** 21 - 1;
const PRIORITY_PER_DECADE = 100_000;
const LOG10_MAX_SECONDS = 6;

export function unitPriority(seconds: number): number {
  // Nothing to go by (0, NaN): last.
  const log = Math.log10(seconds > 0 ? seconds : Number.MIN_VALUE);
  const steps = Math.round((LOG10_MAX_SECONDS - log) * PRIORITY_PER_DECADE);
  return Math.min(PRIORITY_LIMIT, Math.max(1, 1 + steps));
}
