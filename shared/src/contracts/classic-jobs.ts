// The classic problem's jobs, results and store keys (see problems.ts). A flow per n: a
// `classic-sum` job `c16` in `aggregate` over one `classic-unit` job per unit in `count`
// (`c16-3.7`), plus, in a verified sweep, second counts of a sample of units by the other
// method (`c16-v-3.7`). Counts are decimal strings.
import * as v from 'valibot';
import { InvalidInputError } from '../kernel/errors.js';
import { assertBoard } from '../kernel/board.js';
import { CLASSIC_METHODS, parseClassicUnitKey } from '../kernel/classic-units.js';
import { SWEEP_ID } from './job-payloads.js';
import { PROBLEM_REGISTRY } from './problems.js';
import { checkFirst, optionalIndex, parserOf, record, refine } from './schema.js';

const REGISTRATION = PROBLEM_REGISTRY.classic;
export const CLASSIC_JOB_NAMES = REGISTRATION.jobNames;

/** The classic sum of n in `aggregate`: `c16` (never `n16`, the weak S(n)). */
export function classicSumJobId(n: number): string {
  return `${REGISTRATION.idPrefix}${n}`;
}

/**
 * One unit of Q(n) in `count`: `c16-3.7`; its second count `c16-v-3.7`; a batch of `size`
 * units from 3.7 on, `c16-3.7+5` (the first unit and how many follow it).
 */
export function classicUnitJobId(n: number, key: string, role?: 'check', size = 1): string {
  const unit = key === '*' ? 'all' : key;
  const more = size > 1 ? `+${size - 1}` : '';
  return `${classicSumJobId(n)}-${role === 'check' ? 'v-' : ''}${unit}${more}`;
}

/** The classic part of the result store: `<prefix>:results:classic…`. */
export interface ClassicStoreKeys {
  /** Hash n → ClassicResult JSON. */
  readonly results: string;
  /** Hash unit key → ClassicUnitResult JSON of one n (the second counts apart). */
  units(n: number, role?: 'check'): string;
  /** Hash `n:unit` → both values of a unit counted twice with two values. */
  readonly disagreements: string;
}

export function classicStoreKeys(prefix: string): ClassicStoreKeys {
  const base = `${prefix}:results${REGISTRATION.storeSpace}`;
  return {
    results: base,
    units: (n, role) => `${base}:${role === 'check' ? 'check:' : ''}units:${n}`,
    disagreements: `${base}:disagreements`,
  };
}

// One schema per payload and result, as for the weak jobs (job-payloads.ts, job-results.ts):
// the board is judged first, then each unit key against the units of that board.
const integer = v.message(v.pipe(v.number(), v.integer()), 'an integer');
const sweepId = v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id such as "s-lx3k2a"');
const problem = v.literal('classic', '"classic"');
const method = v.picklist(CLASSIC_METHODS, CLASSIC_METHODS.join(' or '));
const role = v.optional(v.literal('check', '"check" or absent'));
const decimal = v.message(v.pipe(v.string(), v.regex(/^(0|[1-9]\d{0,39})$/)), 'a decimal string');
const count = v.message(v.pipe(v.number(), v.safeInteger(), v.minValue(0)), 'a whole number ≥ 0');
const seconds = v.message(v.pipe(v.number(), v.finite(), v.minValue(0)), 'a number of seconds ≥ 0');
const unitKey = v.string('a unit key such as "3.7"');
/** The sweep whose job counted a result (a later sweep may reuse it). */
const resultSweepId = v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id');
/** HMAC-SHA256 under WQ_RESULT_KEY over the counts and provenance (result-seal.ts); absent unkeyed. */
const mac = v.optional(
  v.message(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), '64 hex digits or absent'),
);
const keyList = v.message(
  v.pipe(v.array(v.string()), v.readonly()),
  'distinct unit keys such as "3.7"',
);

/** n as a board of Q(n) allows it, judged before anything else: `classic unit job.n`. */
const BoardSchema = checkFirst(
  v.pipe(
    record({ n: v.unknown() }),
    refine((fields) => {
      try {
        assertBoard(fields.n as number, 0);
      } catch {
        throw new InvalidInputError('n', fields.n, 'an integer from 1 to 32');
      }
      return fields;
    }, 'nested'),
  ),
);

/** A classic contract: its board judged first, then its fields. */
function onClassicBoard<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(v.unknown(), BoardSchema, record(entries));
}

/** A classic job: its board judged first, then the sweep's fields and its own. */
function onClassicJob<const E extends v.ObjectEntries>(entries: E) {
  return onClassicBoard({ problem, sweepId, n: integer, ...entries });
}

/** Every key names a unit of Q(n), once. */
function unitsOfBoard<T extends { readonly n: number }>(
  ...fields: (keyof T & string)[]
): (job: T) => T {
  return (job) => {
    for (const field of fields) {
      const value = job[field] as unknown;
      if (value === undefined) continue;
      const keys = Array.isArray(value) ? (value as unknown[]) : [value];
      if (Array.isArray(value) && new Set(value).size !== value.length) {
        throw new InvalidInputError(field, value, 'distinct unit keys such as "3.7"');
      }
      for (const key of keys) {
        if (typeof key !== 'string' || !parseClassicUnitKey(job.n, key)) {
          throw new InvalidInputError(
            field,
            value,
            `a unit of Q(${job.n}) such as "0.2" or "3.7" (the columns of rows 0 and 1)`,
          );
        }
      }
    }
    return job;
  };
}

/** A `classic-unit` job: count one unit of Q(n) by `method`. */
const ClassicUnitJobSchema = v.pipe(
  onClassicJob({
    unit: unitKey,
    method,
    role,
    /** A first count whose unit is counted a second time (by another worker where there is one). */
    paired: v.optional(v.literal(true, 'true or absent')),
    /**
     * A batch: the units this job counts in turn, `unit` first, each stored on its own (so a
     * crash loses at most the unit in hand). Only first counts without a second count batch.
     */
    batch: v.optional(v.message(v.pipe(keyList, v.minLength(2)), 'two or more unit keys')),
  }),
  refine(unitsOfBoard('unit', 'batch'), 'nested'),
  refine((job) => {
    if (job.batch === undefined) return job;
    if (job.batch[0] !== job.unit) {
      throw new InvalidInputError('batch', job.batch, `unit keys from "${job.unit}" (job.unit) on`);
    }
    if (job.role !== undefined || job.paired !== undefined || job.method !== 'pruned') {
      throw new InvalidInputError(
        'batch',
        job.batch,
        'absent for a unit counted twice or by images',
      );
    }
    return job;
  }, 'nested'),
);
export type ClassicUnitJobData = v.InferOutput<typeof ClassicUnitJobSchema>;
export const parseClassicUnitJobData = parserOf(ClassicUnitJobSchema, 'classic unit job');

/** The units a sum counted twice are among its units. */
function checksAmongUnits<T extends { unitKeys: readonly string[]; checkKeys?: readonly string[] }>(
  job: T,
): T {
  if (job.checkKeys?.some((k) => !job.unitKeys.includes(k))) {
    throw new InvalidInputError('checkKeys', job.checkKeys, 'a subset of unitKeys');
  }
  return job;
}

/** A `classic-sum` job: Q(n) and the classes over every unit, each exactly once. */
const ClassicSumJobSchema = v.pipe(
  onClassicJob({
    unitKeys: v.message(v.pipe(keyList, v.minLength(1)), 'every unit of Q(n), at least one'),
    /** The units counted a second time, which must agree with their first count. */
    checkKeys: v.optional(keyList),
  }),
  refine(unitsOfBoard('unitKeys', 'checkKeys'), 'nested'),
  refine(checksAmongUnits, 'nested'),
);
export type ClassicSumJobData = v.InferOutput<typeof ClassicSumJobSchema>;
export const parseClassicSumJobData = parserOf(ClassicSumJobSchema, 'classic sum job');

/** What a `classic-unit` job returns and the store keeps: one unit's subtotals with its class. */
const ClassicUnitResultSchema = v.pipe(
  onClassicBoard({
    kind: v.literal('classic-unit', '"classic-unit"'),
    n: integer,
    unit: unitKey,
    method,
    /** Its boards: Σ over its canonical boards of their orbit's size. */
    boards: decimal,
    /** Its classes of boards under the 8 symmetries. */
    classes: decimal,
    seconds,
    worker: v.message(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), 'a worker id'),
    sweepId: resultSweepId,
    role,
    /** When its thread started on it (epoch ms, the worker's clock); older records lack it. */
    startedAt: optionalIndex('epoch milliseconds'),
    /** The worker's classic thread that ran it (0 … threads − 1); older records lack it. */
    slot: optionalIndex('a slot index'),
    mac,
    /**
     * Imported without a MAC this store verifies: kept, but no result until a count of its own
     * replaces it, unless the import said `--trust` (as for the weak units, job-results.ts).
     */
    unverified: v.optional(v.literal(true, 'true or absent')),
  }),
  refine(unitsOfBoard('unit'), 'nested'),
);
export type ClassicUnitResult = v.InferOutput<typeof ClassicUnitResultSchema>;
export const parseClassicUnitResult = parserOf(ClassicUnitResultSchema, 'classic unit result');

/** What a `classic-sum` job returns and the store keeps per n. */
const ClassicResultSchema = onClassicBoard({
  kind: v.literal('classic', '"classic"'),
  n: integer,
  /** Q(n), OEIS A000170. */
  Q: decimal,
  /** Boards distinct under rotations and reflections, OEIS A002562. */
  unique: decimal,
  units: count,
  /** Units counted a second time by the other method, all agreeing. */
  checked: count,
  /** Single-core seconds summed over the units (first counts). */
  seconds,
  workers: v.message(v.pipe(v.array(v.string()), v.readonly()), 'a list of worker ids'),
  sweepId: resultSweepId,
  completedAt: v.message(v.pipe(v.string(), v.minLength(1), v.maxLength(40)), 'an ISO time'),
  mac,
});
export type ClassicResult = v.InferOutput<typeof ClassicResultSchema>;
export const parseClassicResult = parserOf(ClassicResultSchema, 'classic result');
