// The values jobs return (BullMQ stores them as JSON) and the records the result store keeps.
// Counts are decimal strings; one schema per value read back from Redis checks every field.
import * as v from 'valibot';
import { InvalidInputError } from '../kernel/errors.js';
import { ALGORITHMS } from '../kernel/algorithms.js';
import { SWEEP_ID } from './job-payloads.js';
import { optionalIndex, parseInput, parserOf, record } from './schema.js';

const DECIMAL = /^(0|[1-9][0-9]*)$/;

export function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

const decimal = v.message(v.pipe(v.string(), v.regex(DECIMAL)), 'a decimal string');
const algorithm = v.picklist(ALGORITHMS, ALGORITHMS.join(', '));
const secondsAtLeast0 = v.message(v.pipe(v.number(), v.minValue(0)), 'a number ≥ 0');
const optionalSeconds = v.optional(secondsAtLeast0);
const role = v.optional(v.literal('check', '"check" or absent'));
const workers = v.message(v.pipe(v.array(v.string()), v.readonly()), 'a list of worker ids');
const countInteger = (min: number, allowed: string) =>
  v.message(v.pipe(v.number(), v.integer(), v.minValue(min)), allowed);
/** The recorded plan a count belongs to (plan-record.ts); older records lack it. */
const planId = v.optional(
  v.message(v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)), 'a plan id of 12 hex digits or absent'),
);
/** HMAC-SHA256 under WQ_RESULT_KEY over value and provenance (result-seal.ts); absent unkeyed. */
const mac = v.optional(
  v.message(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), '64 hex digits or absent'),
);

/** What every count of an (n, D), whole or a unit of it, says. */
const countFields = {
  n: countInteger(1, 'n ≥ 1'),
  depth: countInteger(0, 'D ≥ 0'),
  value: decimal,
  algorithm,
  seconds: secondsAtLeast0,
};

/** What a `unit` job returns: its share of N(n, D). */
export const UnitResultSchema = record({
  kind: v.literal('unit', '"unit"'),
  ...countFields,
  unit: v.string('a unit key'),
  worker: v.string('a worker id'),
  /** The planner's expected seconds (calibrated), shown next to `seconds`. */
  estimateSeconds: optionalSeconds,
  /** The kernel's own estimate before calibration; calibrates the next plans. */
  modelSeconds: optionalSeconds,
  /** `check`: a unit of the second count of a verified sweep. */
  role,
  /** The sweep whose job counted it (a later sweep may reuse it); older records lack it. */
  sweepId: v.optional(v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id or absent')),
  /** When the kernel started on it (epoch ms, the worker's clock); older records lack it. */
  startedAt: optionalIndex('epoch milliseconds'),
  /** The worker's kernel-pool slot that ran it (0 … concurrency − 1); older records lack it. */
  slot: optionalIndex('a slot index'),
  /** The unit's weight in its plan (1, 2 or 4: the symmetry orbit it stands for). */
  weight: v.optional(v.picklist([1, 2, 4], '1, 2, 4 or absent')),
  planId,
  mac,
  /**
   * Brought by an import without a verifying MAC: not a result until a count of its own agrees
   * (the store then replaces it), unless the import said `--trust`.
   */
  unverified: v.optional(v.literal(true, 'true or absent')),
});
export type UnitResult = v.InferOutput<typeof UnitResultSchema>;
export const parseUnitResult = parserOf(UnitResultSchema, 'unit result');

/** What a `depth` job returns (and what the result store keeps per (n, D)). */
export const DepthResultSchema = record({
  kind: v.literal('depth', '"depth"'),
  ...countFields,
  units: countInteger(1, 'an integer ≥ 1'),
  /** Single-core seconds summed over the units (`seconds`), by these workers. */
  workers,
  /** The planner's expected seconds summed over the units, when every unit carried one. */
  estimateSeconds: optionalSeconds,
  /** `check`: the second count of a verified sweep. */
  role,
  planId,
  mac,
});
export type DepthResult = v.InferOutput<typeof DepthResultSchema>;
export const parseDepthResult = parserOf(DepthResultSchema, 'depth result');

/** A child value of a `sum` job: a depth result, or the unit result of an unsplit (n, D). */
const UnitAsDepthSchema = v.pipe(UnitResultSchema, v.transform(wholeDepth));
const ChildResultSchema = v.lazy((input) =>
  (input as { kind?: unknown } | null)?.kind === 'unit' ? UnitAsDepthSchema : DepthResultSchema,
);

/** What the second count of a verified (n, D) returns: both counts, for the sum to compare. */
export const VerifiedResultSchema = record({
  kind: v.literal('verified', '"verified"'),
  n: countInteger(1, 'n ≥ 1'),
  depth: countInteger(0, 'D ≥ 0'),
  primary: DepthResultSchema,
  check: DepthResultSchema,
});
export type VerifiedResult = v.InferOutput<typeof VerifiedResultSchema>;

export const DepthMismatchSchema = record({
  depth: countInteger(0, 'D ≥ 0'),
  /** The first count. */
  value: decimal,
  algorithm,
  workers,
  /** The value it was checked against: a second count or a published reference. */
  expected: decimal,
  /** The second count's algorithm, or the reference (`n^n`, `OEIS A000170`). */
  expectedFrom: v.string('an algorithm or a reference'),
  expectedWorkers: v.optional(workers),
});
export type DepthMismatch = v.InferOutput<typeof DepthMismatchSchema>;

/** Why S(n) was not published: counts that disagree, with every value. */
export const MismatchSchema = record({
  n: countInteger(1, 'n ≥ 1'),
  sweepId: v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id'),
  at: v.string('an ISO time'),
  depths: v.message(v.pipe(v.array(DepthMismatchSchema), v.readonly()), 'a list of (n, D) counts'),
});
export type Mismatch = v.InferOutput<typeof MismatchSchema>;

/** What a `sum` job returns: S(n) and N(n, D) indexed by D. */
export const SumResultSchema = record({
  kind: v.literal('sum', '"sum"'),
  n: countInteger(1, 'n ≥ 1'),
  S: decimal,
  N: v.message(v.pipe(v.array(decimal), v.readonly()), 'a list of decimal strings'),
});
export type SumResult = v.InferOutput<typeof SumResultSchema>;

const depthResults = v.message(
  v.pipe(v.array(DepthResultSchema), v.readonly()),
  'a list of depth results',
);

/** Written with S(n): how it was computed. */
export const CompletionRecordSchema = record({
  n: countInteger(1, 'n ≥ 1'),
  S: decimal,
  sweepId: v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id'),
  completedAt: v.string('an ISO time'),
  /** Single-core seconds summed over every unit of every D. */
  cpuSeconds: secondsAtLeast0,
  depths: depthResults,
  workers,
  /** Verified sweeps: the second count of every D, in the order of `depths`. */
  checks: v.optional(depthResults),
  mac,
});
export type CompletionRecord = v.InferOutput<typeof CompletionRecordSchema>;

/** A child value of a `sum` job: a depth result, or the unit result of an unsplit (n, D). */
export function parseChildResult(value: unknown): DepthResult {
  return parseInput(ChildResultSchema, value, { name: 'child result' });
}

/** The values of a verified (n, D) as a `sum` job reads them: each may be a unit or a depth. */
const VerifiedChildSchema = record({
  kind: v.literal('verified', '"verified"'),
  primary: ChildResultSchema,
  check: ChildResultSchema,
});

/** A child of a `sum` job: one count of an (n, D), or both counts of a verified one. */
export function parseSumChild(value: unknown): { primary: DepthResult; check?: DepthResult } {
  if ((value as { kind?: unknown } | null)?.kind !== 'verified') {
    return { primary: parseChildResult(value) };
  }
  const { primary, check } = parseInput(VerifiedChildSchema, value, { name: 'child result' });
  // Which count is which is not a field: the second is the same (n, D) with role `check`.
  if (primary.n !== check.n || primary.depth !== check.depth || check.role !== 'check') {
    throw new InvalidInputError(
      'child result.check',
      (value as { check?: unknown }).check,
      'the second count of the same (n, D)',
    );
  }
  return { primary, check };
}

/** An unsplit (n, D): its one unit is the whole of N(n, D). */
export function wholeDepth(unit: UnitResult): DepthResult {
  return {
    kind: 'depth',
    n: unit.n,
    depth: unit.depth,
    value: unit.value,
    algorithm: unit.algorithm,
    units: 1,
    seconds: unit.seconds,
    workers: [unit.worker],
    ...(unit.estimateSeconds === undefined ? {} : { estimateSeconds: unit.estimateSeconds }),
    ...(unit.role === undefined ? {} : { role: unit.role }),
    ...(unit.planId === undefined ? {} : { planId: unit.planId }),
  };
}

/** A Mismatch read back from the result store (`wq status` shows it as the reason). */
export function parseMismatch(value: unknown): Mismatch {
  return parseInput(MismatchSchema, value, { name: 'mismatch' });
}

/** A CompletionRecord read back from the result store (or from an import file). */
export function parseCompletionRecord(value: unknown): CompletionRecord {
  return parseInput(CompletionRecordSchema, value, { name: 'completion record' });
}
