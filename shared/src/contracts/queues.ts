// Queue names, job names and the deterministic job ids every producer and worker agree on.
// BullMQ ids may not contain ':', so ids are built from '-' separated parts.

/** The two queues of the pipeline: CPU-bound units, and the cheap sums over their results. */
export const QUEUE_NAMES = { count: 'count', aggregate: 'aggregate' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/**
 * How long finished jobs stay in Redis. Results live in the result store, so a finished job is
 * only kept to be looked at: completed ones for an hour (at most 1000 per queue), failed ones,
 * which `wq retry` and `wq status` read, for a week (at most 10,000).
 */
export const JOB_RETENTION = {
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 86_400, count: 10_000 },
} as const;

/** The events stream of each queue keeps about this many entries (BullMQ's default is 10,000). */
export const EVENTS_MAX_LEN = 1000;

/**
 * The options every Queue instance must share: BullMQ writes the events stream's length into the
 * queue's meta key whenever a Queue is created, so one instance without it would reset it.
 */
export function queueStreams(): { events: { maxLen: number } } {
  return { events: { maxLen: EVENTS_MAX_LEN } };
}

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

/**
 * One unit of a split (n, D) in `count`: `n14-d9-p1a2b3c4d-u3`. The plan id is in it because
 * unit 3 of one split is not unit 3 of another (a sweep with another target splits otherwise).
 */
export function unitJobId(n: number, depth: number, planId: string, index: number): string {
  return `n${n}-d${depth}-p${planId}-u${index}`;
}

/**
 * The unit's identity in the result store: everything that determines its value besides
 * (n, D): its fixed first-row columns ("3.1"), or "m" and its fixed rows from the board's centre
 * down ("m3.7.1"), or "*" for none. The weight follows from these rows (`unitWeight`), so it
 * needs no place here.
 */
export function unitKey(prefix: readonly number[], middle: readonly number[] = []): string {
  if (middle.length > 0) return `m${middle.join('.')}`;
  return prefix.length === 0 ? '*' : prefix.join('.');
}

/** The shape of a unit key (see `unitKey`). */
export const UNIT_KEY = /^(\*|m?\d{1,2}(\.\d{1,2}){0,31})$/;

/** The rows a unit key stands for, or undefined when it is not one. */
export function parseUnitKey(
  key: string,
): { prefix: readonly number[]; middle: readonly number[] } | undefined {
  if (!UNIT_KEY.test(key)) return undefined;
  if (key === '*') return { prefix: [], middle: [] };
  if (key.startsWith('m')) return { prefix: [], middle: key.slice(1).split('.').map(Number) };
  return { prefix: key.split('.').map(Number), middle: [] };
}

/** The second count of an (n, D) in a verified sweep: `n14-d9-v` (a unit, or the sum of its units). */
export function checkJobId(n: number, depth: number): string {
  return `n${n}-d${depth}-v`;
}

/** One unit of a split second count: `n14-d9-v-p1a2b3c4d-u3`. */
export function checkUnitJobId(n: number, depth: number, planId: string, index: number): string {
  return `n${n}-d${depth}-v-p${planId}-u${index}`;
}
