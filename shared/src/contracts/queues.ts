// Queue names, job names and the deterministic job ids every producer and worker agree on.
// BullMQ ids may not contain ':', so ids are built from '-' separated parts.
import { FIRST_PROTOCOL, PROTOCOL_VERSION } from './protocol.js';

/**
 * The two queues of one protocol: CPU-bound units, and the cheap sums over their results.
 * Named by protocol (`count.v2`), so a worker of another build never sees a job it would
 * misread; the first protocol's are the plain names every earlier build used.
 */
export function queueNamesOf(protocol: number): {
  readonly count: string;
  readonly aggregate: string;
} {
  if (protocol === FIRST_PROTOCOL) return { count: 'count', aggregate: 'aggregate' };
  return { count: `count.v${protocol}`, aggregate: `aggregate.v${protocol}` };
}

/** This build's queues. */
export const QUEUE_NAMES = queueNamesOf(PROTOCOL_VERSION);

/**
 * Units go only where they fit. A unit that every live worker can hold goes to `count`, which
 * every worker consumes; a larger one goes to the count queue of its memory class, the next
 * power of two of its estimated bytes (`count@2GiB`), which only workers whose per-slot memory
 * holds that class consume. A small worker so never fetches a unit it would have to refuse.
 * Class queues carry the protocol too, in their base name (`count.v2@2GiB`).
 * Powers of two keep the classes few (one per doubling) whatever the machines' sizes.
 */
const COUNT_CLASS_SEPARATOR = '@';

/** The memory class of a unit of `bytes`: the smallest power of two ≥ bytes (≥ 1). */
export function memoryClassOf(bytes: number): number {
  let size = 1;
  while (size < bytes) size *= 2;
  return size;
}

/** The largest memory class that `bytes` holds (0 below one byte). */
export function largestClassWithin(bytes: number): number {
  if (bytes < 1) return 0;
  let size = 1;
  while (size * 2 <= bytes) size *= 2;
  return size;
}

const SIZE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** A power of two of bytes as a queue name part: 512MiB, 2GiB. */
export function formatClass(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && value % 1024 === 0 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value}${SIZE_UNITS[unit]}`;
}

/**
 * The count queue of a unit estimated at `bytes`: `count` when it fits `baseBytes` (what every
 * live worker holds per slot), else the queue of its memory class.
 */
export function countQueueFor(bytes: number, baseBytes: number): string {
  if (bytes <= baseBytes) return QUEUE_NAMES.count;
  return `${QUEUE_NAMES.count}${COUNT_CLASS_SEPARATOR}${formatClass(memoryClassOf(bytes))}`;
}

/**
 * The memory class of a count queue of `protocol` (bytes): 0 for its `count` (any worker), the
 * class of a `count@<size>` queue, or undefined for any other name (another protocol's too).
 */
export function countQueueClass(
  name: string,
  protocol: number = PROTOCOL_VERSION,
): number | undefined {
  const base = queueNamesOf(protocol).count;
  if (name === base) return 0;
  if (!name.startsWith(`${base}${COUNT_CLASS_SEPARATOR}`)) return undefined;
  const match = /^(\d+)(B|KiB|MiB|GiB|TiB|PiB)$/.exec(
    name.slice(base.length + COUNT_CLASS_SEPARATOR.length),
  );
  if (!match?.[1] || !match[2]) return undefined;
  const bytes =
    Number(match[1]) * 1024 ** SIZE_UNITS.indexOf(match[2] as (typeof SIZE_UNITS)[number]);
  return Number.isSafeInteger(bytes) && memoryClassOf(bytes) === bytes ? bytes : undefined;
}

/** True for this build's `count` and every class queue of it. */
export function isCountQueue(name: string): boolean {
  return countQueueClass(name) !== undefined;
}

/**
 * The Redis set of class queues a producer has put units in. Workers read it to learn which
 * class queues to consume; status, cancel, retry, the dashboard and /metrics read it to see
 * every count queue. With one kind of worker it stays empty: nothing but `count` is used.
 * Every protocol's class queues share it; each build reads only the names of its own.
 */
export function countClassesKey(prefix: string): string {
  return `${prefix}:count-classes`;
}

/**
 * Every count queue of `protocol` named in `classes` (the set above), `count` first, then by
 * class.
 */
export function countQueueNames(
  classes: Iterable<string>,
  protocol: number = PROTOCOL_VERSION,
): string[] {
  const classOf = (q: string): number => countQueueClass(q, protocol) ?? 0;
  const named = [...new Set(classes)].filter((q) => classOf(q) > 0);
  named.sort((a, b) => classOf(a) - classOf(b));
  return [queueNamesOf(protocol).count, ...named];
}

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
 * down ("m3.7.1"), or "*" for none, and "*2/4" for part 2 (of 0 … 3) of a whole (n, D)'s
 * window transfer. The weight follows from these rows (`unitWeight`), so it needs no place here.
 */
export function unitKey(
  prefix: readonly number[],
  middle: readonly number[] = [],
  part?: { readonly index: number; readonly of: number },
): string {
  if (middle.length > 0) return `m${middle.join('.')}`;
  if (part) return `*${part.index}/${part.of}`;
  return prefix.length === 0 ? '*' : prefix.join('.');
}

/** The shape of a unit key (see `unitKey`). */
export const UNIT_KEY = /^(\*|\*\d{1,2}\/\d{1,2}|m?\d{1,2}(\.\d{1,2}){0,31})$/;

/** The rows (and part) a unit key stands for, or undefined when it is not one. */
export function parseUnitKey(key: string):
  | {
      prefix: readonly number[];
      middle: readonly number[];
      part?: { readonly index: number; readonly of: number };
    }
  | undefined {
  if (!UNIT_KEY.test(key)) return undefined;
  if (key === '*') return { prefix: [], middle: [] };
  if (key.startsWith('*')) {
    const [index, of] = key.slice(1).split('/').map(Number) as [number, number];
    return { prefix: [], middle: [], part: { index, of } };
  }
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
