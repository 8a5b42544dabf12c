// Queue names, job names and the deterministic job ids every producer and worker agree on.
// BullMQ ids may not contain ':', so ids are built from '-' separated parts.

/** The two queues of the pipeline: CPU-bound units, and the cheap sums over their results. */
export const QUEUE_NAMES = { count: 'count', aggregate: 'aggregate' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/** Job names: a `unit` counts completions; `depth` sums the units of one (n, D); `sum` gives S(n). */
export const JOB_NAMES = { unit: 'unit', depth: 'depth', sum: 'sum' } as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** The S(n) job in `aggregate`: `n14`. */
export function sumJobId(n: number): string {
  return `n${n}`;
}

/** An (n, D) job: the unit itself in `count` when it is not split, else its sum in `aggregate`. */
export function depthJobId(n: number, depth: number): string {
  return `n${n}-d${depth}`;
}

/** One unit of a split (n, D) in `count`: `n14-d9-u3`. */
export function unitJobId(n: number, depth: number, index: number): string {
  return `n${n}-d${depth}-u${index}`;
}

/**
 * The unit's identity in the result store: its fixed first-row columns ("3.1"), or "m" and its
 * fixed middle-row columns ("m3.7.1"), or "*" for none.
 */
export function unitKey(prefix: readonly number[], middle: readonly number[] = []): string {
  if (middle.length > 0) return `m${middle.join('.')}`;
  return prefix.length === 0 ? '*' : prefix.join('.');
}

/** The second count of an (n, D) in a verified sweep: `n14-d9-v` (a unit, or the sum of its units). */
export function checkJobId(n: number, depth: number): string {
  return `n${n}-d${depth}-v`;
}

/** One unit of a split second count: `n14-d9-v-u3`. */
export function checkUnitJobId(n: number, depth: number, index: number): string {
  return `n${n}-d${depth}-v-u${index}`;
}
