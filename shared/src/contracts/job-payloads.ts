// One schema per job payload. Everything read back from Redis goes through these parsers:
// a payload that fails them can never succeed, so the worker fails the job without retries.
import { InvalidInputError } from '../kernel/errors.js';
import { type Algorithm, ALGORITHMS } from '../kernel/algorithms.js';
import { assertBoard, assertLegalUnit } from '../kernel/board.js';
import { unitWeight } from '../kernel/symmetry.js';
import { PLAN_ID } from './plan-record.js';
import { UNIT_KEY } from './queues.js';

/** A `unit` job: count the completions of `prefix` (or `middle`) on an (n, D) board, times `weight`. */
export interface UnitJobData {
  readonly sweepId: string;
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  readonly prefix: readonly number[];
  /** A DFS unit's fixed rows from the board's centre down (see `WorkUnit.middle`); absent: none. */
  readonly middle?: readonly number[];
  readonly weight: 1 | 2 | 4;
  /** The recorded plan this unit belongs to (`plan-record.ts`). */
  readonly planId: string;
  /** Expected single-core seconds (calibrated; for progress, priority and the records). */
  readonly estimateSeconds: number;
  /** The kernel's estimate before calibration, kept with the result to calibrate later plans. */
  readonly modelSeconds?: number;
  /**
   * Its estimated peak memory (bytes, the kernel's `estimateCost(...).bytes`): it chose the
   * unit's count queue, and `wq status` names it when no live worker can hold the unit.
   */
  readonly bytes?: number;
  /** True when this unit is all of N(n, D) (the (n, D) was not split). */
  readonly whole: boolean;
  /** `check`: part of the second count of a verified sweep (stored apart from the first). */
  readonly role?: 'check';
}

/** A `depth` job: N(n, D) as the sum of the units listed (by unit key), each exactly once. */
export interface DepthJobData {
  readonly sweepId: string;
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  readonly unitKeys: readonly string[];
  /** The recorded plan whose units these are, all of them. */
  readonly planId: string;
  /** `check`: the second count of a verified sweep; its other child is the first count. */
  readonly role?: 'check';
}

/** A `sum` job: S(n) over every D in 0..n−1. */
export interface SumJobData {
  readonly sweepId: string;
  readonly n: number;
  /** Every D comes as a first count and a second one by another algorithm; both must agree. */
  readonly verify?: boolean;
}

type Fields = Record<string, unknown>;

function asObject(data: unknown, what: string): Fields {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new InvalidInputError(what, data, 'an object');
  }
  return data as Fields;
}

function integer(fields: Fields, name: string, what: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidInputError(`${what}.${name}`, value, 'an integer');
  }
  return value;
}

function sweepId(fields: Fields, what: string): string {
  const value = fields.sweepId;
  if (typeof value !== 'string' || !SWEEP_ID.test(value)) {
    throw new InvalidInputError(`${what}.sweepId`, value, 'a sweep id such as "s-lx3k2a"');
  }
  return value;
}

function role(fields: Fields, what: string): { role?: 'check' } {
  const value = fields.role;
  if (value === undefined) return {};
  if (value !== 'check') throw new InvalidInputError(`${what}.role`, value, '"check" or absent');
  return { role: value };
}

function planId(fields: Fields, what: string): string {
  const value = fields.planId;
  if (typeof value !== 'string' || !PLAN_ID.test(value)) {
    throw new InvalidInputError(`${what}.planId`, value, 'a plan id of 12 hex digits');
  }
  return value;
}

/** No unit is planned for more than a year of one core; larger figures are not estimates. */
const MAX_ESTIMATE_SECONDS = 365 * 86_400;

function seconds(
  fields: Fields,
  name: string,
  what: string,
  optional: boolean,
): number | undefined {
  const value = fields[name];
  if (value === undefined && optional) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    value > MAX_ESTIMATE_SECONDS
  ) {
    throw new InvalidInputError(
      `${what}.${name}`,
      value,
      `a number of seconds from 0 to ${MAX_ESTIMATE_SECONDS}${optional ? ', or absent' : ''}`,
    );
  }
  return value;
}

/** Sweep ids name Redis keys and appear in job data: letters, digits, '-' and '_' only. */
export const SWEEP_ID = /^[A-Za-z0-9_-]{1,64}$/;

function algorithm(fields: Fields, what: string): Algorithm {
  const value = fields.algorithm;
  if (typeof value !== 'string' || !(ALGORITHMS as readonly string[]).includes(value)) {
    throw new InvalidInputError(`${what}.algorithm`, value, `one of ${ALGORITHMS.join(', ')}`);
  }
  return value as Algorithm;
}

function board(fields: Fields, what: string): { n: number; depth: number } {
  const n = integer(fields, 'n', what);
  const depth = integer(fields, 'depth', what);
  try {
    assertBoard(n, depth);
  } catch (err) {
    if (err instanceof InvalidInputError) {
      throw new InvalidInputError(`${what}.${err.field}`, err.value, err.allowed);
    }
    throw err;
  }
  return { n, depth };
}

export function parseUnitJobData(data: unknown): UnitJobData {
  const what = 'unit job';
  const fields = asObject(data, what);
  const { n, depth } = board(fields, what);
  const prefix = columns(fields, 'prefix', what, n);
  const middle = fields.middle === undefined ? [] : columns(fields, 'middle', what, n);
  try {
    assertLegalUnit(n, depth, prefix, middle);
  } catch (err) {
    if (err instanceof InvalidInputError) {
      throw new InvalidInputError(`${what}.${err.field}`, err.value, err.allowed);
    }
    throw err;
  }
  // The weight must be the one the plan gives these rows: a forged weight or a non-canonical
  // unit would count boards twice or not at all.
  const weight = fields.weight;
  const expected = unitWeight(n, depth, prefix, middle);
  if (expected === 0) {
    const field = middle.length > 0 ? 'middle' : 'prefix';
    throw new InvalidInputError(
      `${what}.${field}`,
      middle.length > 0 ? middle : prefix,
      `the fixed rows of a unit the plan for N(${n}, ${depth}) makes`,
    );
  }
  if (weight !== expected) {
    throw new InvalidInputError(`${what}.weight`, weight, `${expected}, as these rows give`);
  }
  const estimateSeconds = seconds(fields, 'estimateSeconds', what, false) ?? 0;
  const modelSeconds = seconds(fields, 'modelSeconds', what, true);
  const bytes = fields.bytes;
  if (
    bytes !== undefined &&
    (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)
  ) {
    throw new InvalidInputError(`${what}.bytes`, bytes, 'a whole number of bytes ≥ 0, or absent');
  }
  const whole = fields.whole;
  if (typeof whole !== 'boolean')
    throw new InvalidInputError(`${what}.whole`, whole, 'true or false');
  const kind = algorithm(fields, what);
  if (middle.length > 0 && kind !== 'dfs') {
    throw new InvalidInputError(`${what}.middle`, middle, 'absent unless the algorithm is dfs');
  }
  return {
    sweepId: sweepId(fields, what),
    n,
    depth,
    algorithm: kind,
    prefix,
    ...(middle.length > 0 ? { middle } : {}),
    weight: expected,
    planId: planId(fields, what),
    estimateSeconds,
    ...(modelSeconds === undefined ? {} : { modelSeconds }),
    ...(bytes === undefined ? {} : { bytes }),
    whole,
    ...role(fields, what),
  };
}

/** A split (n, D) never has more units than this; longer key lists are not plans. */
const MAX_UNIT_KEYS = 1_000_000;

function columns(fields: Fields, name: 'prefix' | 'middle', what: string, n: number): number[] {
  const value = fields[name];
  if (
    !Array.isArray(value) ||
    value.length > n ||
    !value.every((c) => Number.isInteger(c) && c >= 0 && c < n)
  ) {
    throw new InvalidInputError(
      `${what}.${name}`,
      value,
      `at most n = ${n} column numbers from 0 to ${n - 1}`,
    );
  }
  return value as number[];
}

export function parseDepthJobData(data: unknown): DepthJobData {
  const what = 'depth job';
  const fields = asObject(data, what);
  const { n, depth } = board(fields, what);
  const keys = fields.unitKeys;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    keys.length > MAX_UNIT_KEYS ||
    !keys.every((k) => typeof k === 'string' && UNIT_KEY.test(k)) ||
    new Set(keys).size !== keys.length
  ) {
    throw new InvalidInputError(
      `${what}.unitKeys`,
      keys,
      'distinct unit keys such as "3.1" or "m3.7"',
    );
  }
  return {
    sweepId: sweepId(fields, what),
    n,
    depth,
    algorithm: algorithm(fields, what),
    unitKeys: keys as string[],
    planId: planId(fields, what),
    ...role(fields, what),
  };
}

export function parseSumJobData(data: unknown): SumJobData {
  const what = 'sum job';
  const fields = asObject(data, what);
  const n = integer(fields, 'n', what);
  try {
    assertBoard(n, 0);
  } catch (err) {
    if (err instanceof InvalidInputError) throw new InvalidInputError(`${what}.n`, n, err.allowed);
    throw err;
  }
  const verify = fields.verify;
  if (verify !== undefined && typeof verify !== 'boolean') {
    throw new InvalidInputError(`${what}.verify`, verify, 'true, false or absent');
  }
  return { sweepId: sweepId(fields, what), n, ...(verify ? { verify } : {}) };
}
