// One schema per job payload. Everything read back from Redis goes through these parsers:
// a payload that fails them can never succeed, so the worker fails the job without retries.
import * as v from 'valibot';
import { InvalidInputError } from '../kernel/errors.js';
import { ALGORITHMS } from '../kernel/algorithms.js';
import { assertBoard, assertLegalUnit, MAX_N } from '../kernel/board.js';
import { unitWeight } from '../kernel/symmetry.js';
import { assertTransferPart } from '../kernel/window-transfer.js';
import { PLAN_ID } from './plan-record.js';
import { UNIT_KEY } from './queues.js';
import { checkFirst, parserOf, record, refine } from './schema.js';

/** Sweep ids name Redis keys and appear in job data: letters, digits, '-' and '_' only. */
export const SWEEP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** No unit is planned for more than a year of one core; larger figures are not estimates. */
const MAX_ESTIMATE_SECONDS = 365 * 86_400;

/** A split (n, D) never has more units than this; longer key lists are not plans. */
const MAX_UNIT_KEYS = 1_000_000;

const integer = v.message(v.pipe(v.number(), v.integer()), 'an integer');
const sweepId = v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id such as "s-lx3k2a"');
const planId = v.message(v.pipe(v.string(), v.regex(PLAN_ID)), 'a plan id of 12 hex digits');
const algorithm = v.picklist(ALGORITHMS, `one of ${ALGORITHMS.join(', ')}`);
const role = v.optional(v.literal('check', '"check" or absent'));
const seconds = (allowed: string) =>
  v.message(
    v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(MAX_ESTIMATE_SECONDS)),
    `a number of seconds from 0 to ${MAX_ESTIMATE_SECONDS}${allowed}`,
  );
/** Column numbers of fixed rows; how many and how large for this n is checked with the board. */
const columns = v.message(
  v.pipe(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_N - 1))),
    v.maxLength(MAX_N),
    v.readonly(),
  ),
  `at most ${MAX_N} column numbers from 0 to ${MAX_N - 1}`,
);

/** The board of a unit or depth job: n and D as the kernel allows them (`unit job.D`). */
function onBoard<T extends { readonly n: number; readonly depth: number }>(job: T): T {
  assertBoard(job.n, job.depth);
  return job;
}

/** The board of a job, judged first (as the kernel allows it): `unit job.D`. */
const BoardSchema = v.pipe(record({ n: integer, depth: integer }), refine(onBoard, 'nested'));

/**
 * A unit job's rows, checked first against the board and the plan's rules: a forged weight or
 * a non-canonical unit is refused for that reason before anything else is looked at.
 */
const UnitRowsSchema = v.pipe(
  record({
    n: integer,
    depth: integer,
    prefix: columns,
    middle: v.optional(columns),
    weight: v.unknown(),
  }),
  refine(onBoard, 'nested'),
  refine(legalRows, 'nested'),
);

/** A `unit` job: count the completions of `prefix` (or `middle`) on an (n, D) board, times `weight`. */
const UnitJobFields = record({
  n: integer,
  depth: integer,
  prefix: columns,
  /** A DFS unit's fixed rows from the board's centre down (see `WorkUnit.middle`); absent: none. */
  middle: v.optional(columns),
  /** One part of a whole (n, D)'s window transfer (see `TransferPart`); absent: whole. */
  part: v.optional(
    record({
      index: integer,
      of: integer,
    }),
  ),
  weight: v.picklist([1, 2, 4], '1, 2 or 4'),
  /** Expected single-core seconds (calibrated; for progress, priority and the records). */
  estimateSeconds: seconds(''),
  /** The kernel's estimate before calibration, kept with the result to calibrate later plans. */
  modelSeconds: v.optional(seconds(', or absent')),
  /**
   * Its estimated peak memory (bytes, the kernel's `estimateCost(...).bytes`): it chose the
   * unit's count queue, and `wq status` names it when no live worker can hold the unit.
   */
  bytes: v.optional(
    v.message(
      v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
      'a whole number of bytes ≥ 0, or absent',
    ),
  ),
  /** True when this unit is all of N(n, D) (the (n, D) was not split). */
  whole: v.boolean('true or false'),
  algorithm,
  sweepId,
  /** The recorded plan this unit belongs to (`plan-record.ts`). */
  planId,
  /** `check`: part of the second count of a verified sweep (stored apart from the first). */
  role,
});
type UnitJobFields = v.InferOutput<typeof UnitJobFields>;

export const UnitJobSchema = v.pipe(
  v.unknown(),
  checkFirst(BoardSchema),
  checkFirst(UnitRowsSchema),
  UnitJobFields,
  refine(middleRows, 'nested'),
  refine(transferPart, 'nested'),
);
export type UnitJobData = v.InferOutput<typeof UnitJobSchema>;
export const parseUnitJobData = parserOf(UnitJobSchema, 'unit job');

/**
 * The rows must fit this board and be a unit the plan makes, with the weight the plan gives
 * them: a forged weight or a non-canonical unit would count boards twice or not at all.
 */
function legalRows<
  T extends { n: number; depth: number; prefix: readonly number[]; middle?: readonly number[] },
>(job: T & { weight?: unknown }): T {
  const { n, depth, prefix, middle = [] } = job;
  for (const [field, rows] of [
    ['prefix', prefix],
    ['middle', middle],
  ] as const) {
    if (rows.length > n || rows.some((c) => c >= n)) {
      throw new InvalidInputError(
        field,
        rows,
        `at most n = ${n} column numbers from 0 to ${n - 1}`,
      );
    }
  }
  assertLegalUnit(n, depth, prefix, middle);
  const expected = unitWeight(n, depth, prefix, middle);
  if (expected === 0) {
    const field = middle.length > 0 ? 'middle' : 'prefix';
    throw new InvalidInputError(
      field,
      middle.length > 0 ? middle : prefix,
      `the fixed rows of a unit the plan for N(${n}, ${depth}) makes`,
    );
  }
  if (job.weight !== expected) {
    throw new InvalidInputError('weight', job.weight, `${expected}, as these rows give`);
  }
  return job;
}

/** Middle rows are a DFS unit's; an empty list is no middle rows, spelt one way (absent). */
function middleRows(job: UnitJobFields): UnitJobFields {
  if (job.middle === undefined) return job;
  if (job.middle.length > 0 && job.algorithm !== 'dfs') {
    throw new InvalidInputError('middle', job.middle, 'absent unless the algorithm is dfs');
  }
  if (job.middle.length > 0) return job;
  const rest = { ...job };
  delete rest.middle;
  return rest;
}

/** A part is a window transfer's, of a whole (n, D) (no fixed rows), and a real part of it. */
function transferPart(job: UnitJobFields): UnitJobFields {
  if (job.part === undefined) return job;
  if (job.algorithm !== 'window-transfer') {
    throw new InvalidInputError(
      'part',
      `${job.part.index}/${job.part.of}`,
      'absent unless the algorithm is window-transfer',
    );
  }
  assertTransferPart(job.part, job.prefix.length);
  return job;
}

/** A `depth` job: N(n, D) as the sum of the units listed (by unit key), each exactly once. */
export const DepthJobSchema = v.pipe(
  v.unknown(),
  checkFirst(BoardSchema),
  record({
    n: integer,
    depth: integer,
    unitKeys: v.message(
      v.pipe(
        v.array(v.pipe(v.string(), v.regex(UNIT_KEY))),
        v.minLength(1),
        v.maxLength(MAX_UNIT_KEYS),
        v.check((keys) => new Set(keys).size === keys.length),
        v.readonly(),
      ),
      'distinct unit keys such as "3.1" or "m3.7"',
    ),
    sweepId,
    algorithm,
    /** The recorded plan whose units these are, all of them. */
    planId,
    /** `check`: the second count of a verified sweep; its other child is the first count. */
    role,
  }),
);
export type DepthJobData = v.InferOutput<typeof DepthJobSchema>;
export const parseDepthJobData = parserOf(DepthJobSchema, 'depth job');

/** A `sum` job: S(n) over every D in 0..n−1. */
export const SumJobSchema = v.pipe(
  v.unknown(),
  checkFirst(
    v.pipe(
      record({ n: integer }),
      refine((job) => {
        assertBoard(job.n, 0);
        return job;
      }, 'nested'),
    ),
  ),
  record({
    sweepId,
    n: integer,
    /** Every D comes as a first count and a second one by another algorithm; both must agree. */
    verify: v.optional(v.boolean('true, false or absent')),
  }),
  refine((job) => {
    // `verify: false` and no `verify` are the same sum: keep one spelling of it.
    if (job.verify === false) {
      const rest = { ...job };
      delete rest.verify;
      return rest;
    }
    return job;
  }, 'nested'),
);
export type SumJobData = v.InferOutput<typeof SumJobSchema>;
export const parseSumJobData = parserOf(SumJobSchema, 'sum job');
