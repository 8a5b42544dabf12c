// The classic problem's jobs, results and store keys (see problems.ts). A flow per n: a
// `classic-sum` job `c16` in `aggregate` over one `classic-unit` job per unit in `count`
// (`c16-3.7`), plus, in a verified sweep, second counts of a sample of units by the other
// method (`c16-v-3.7`). Counts are decimal strings.
import { InvalidInputError } from '../kernel/errors.js';
import { assertBoard } from '../kernel/board.js';
import {
  type ClassicMethod,
  CLASSIC_METHODS,
  parseClassicUnitKey,
} from '../kernel/classic-units.js';
import { SWEEP_ID } from './job-payloads.js';
import { PROBLEM_REGISTRY } from './problems.js';

const REGISTRATION = PROBLEM_REGISTRY.classic;
export const CLASSIC_JOB_NAMES = REGISTRATION.jobNames;

/** The classic sum of n in `aggregate`: `c16` (never `n16`, the weak S(n)). */
export function classicSumJobId(n: number): string {
  return `${REGISTRATION.idPrefix}${n}`;
}

/** One unit of Q(n) in `count`: `c16-3.7`; its second count `c16-v-3.7`. */
export function classicUnitJobId(n: number, key: string, role?: 'check'): string {
  return `${classicSumJobId(n)}-${role === 'check' ? 'v-' : ''}${key === '*' ? 'all' : key}`;
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

/** A `classic-unit` job: count one unit of Q(n) by `method`. */
export interface ClassicUnitJobData {
  readonly problem: 'classic';
  readonly sweepId: string;
  readonly n: number;
  readonly unit: string;
  readonly method: ClassicMethod;
  /** `check`: a second count (by the other method) of a verified sweep. */
  readonly role?: 'check';
}

/** A `classic-sum` job: Q(n) and the classes over every unit, each exactly once. */
export interface ClassicSumJobData {
  readonly problem: 'classic';
  readonly sweepId: string;
  readonly n: number;
  readonly unitKeys: readonly string[];
  /** The units counted a second time, which must agree with their first count. */
  readonly checkKeys?: readonly string[];
}

/** What a `classic-unit` job returns and the store keeps: one unit's subtotals with its class. */
export interface ClassicUnitResult {
  readonly kind: 'classic-unit';
  readonly n: number;
  readonly unit: string;
  readonly method: ClassicMethod;
  /** Its boards: Σ over its canonical boards of their orbit's size. */
  readonly boards: string;
  /** Its classes of boards under the 8 symmetries. */
  readonly classes: string;
  readonly seconds: number;
  readonly worker: string;
  readonly sweepId: string;
  readonly role?: 'check';
}

/** What a `classic-sum` job returns and the store keeps per n. */
export interface ClassicResult {
  readonly kind: 'classic';
  readonly n: number;
  /** Q(n), OEIS A000170. */
  readonly Q: string;
  /** Boards distinct under rotations and reflections, OEIS A002562. */
  readonly unique: string;
  readonly units: number;
  /** Units counted a second time by the other method, all agreeing. */
  readonly checked: number;
  /** Single-core seconds summed over the units (first counts). */
  readonly seconds: number;
  readonly workers: readonly string[];
  readonly sweepId: string;
  readonly completedAt: string;
}

type Fields = Record<string, unknown>;

function fieldsOf(data: unknown, what: string): Fields {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new InvalidInputError(what, data, 'an object');
  }
  return data as Fields;
}

function boardSize(fields: Fields, what: string): number {
  const n = fields.n;
  try {
    assertBoard(n as number, 0);
  } catch {
    throw new InvalidInputError(`${what}.n`, n, 'an integer from 1 to 32');
  }
  return n as number;
}

function text(
  fields: Fields,
  name: string,
  what: string,
  pattern: RegExp,
  allowed: string,
): string {
  const value = fields[name];
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new InvalidInputError(`${what}.${name}`, value, allowed);
  }
  return value;
}

function unitOf(
  fields: Fields,
  name: string,
  what: string,
  n: number,
  value = fields[name],
): string {
  if (typeof value !== 'string' || !parseClassicUnitKey(n, value)) {
    throw new InvalidInputError(
      `${what}.${name}`,
      value,
      `a unit of Q(${n}) such as "0.2" or "3.7" (the columns of rows 0 and 1)`,
    );
  }
  return value;
}

function problemField(fields: Fields, what: string): 'classic' {
  if (fields.problem !== 'classic') {
    throw new InvalidInputError(`${what}.problem`, fields.problem, '"classic"');
  }
  return 'classic';
}

function roleOf(fields: Fields, what: string): { role?: 'check' } {
  if (fields.role === undefined) return {};
  if (fields.role !== 'check')
    throw new InvalidInputError(`${what}.role`, fields.role, '"check" or absent');
  return { role: 'check' };
}

function methodOf(fields: Fields, what: string): ClassicMethod {
  const value = fields.method;
  if (typeof value !== 'string' || !(CLASSIC_METHODS as readonly string[]).includes(value)) {
    throw new InvalidInputError(`${what}.method`, value, CLASSIC_METHODS.join(' or '));
  }
  return value as ClassicMethod;
}

const DECIMAL = /^(0|[1-9]\d{0,39})$/;

export function parseClassicUnitJobData(data: unknown): ClassicUnitJobData {
  const what = 'classic unit job';
  const fields = fieldsOf(data, what);
  const n = boardSize(fields, what);
  return {
    problem: problemField(fields, what),
    sweepId: text(fields, 'sweepId', what, SWEEP_ID, 'a sweep id such as "s-lx3k2a"'),
    n,
    unit: unitOf(fields, 'unit', what, n),
    method: methodOf(fields, what),
    ...roleOf(fields, what),
  };
}

function keyList(fields: Fields, name: string, what: string, n: number): string[] {
  const value = fields[name];
  if (!Array.isArray(value) || new Set(value).size !== value.length) {
    throw new InvalidInputError(`${what}.${name}`, value, 'distinct unit keys such as "3.7"');
  }
  return value.map((key) => unitOf(fields, name, what, n, key));
}

export function parseClassicSumJobData(data: unknown): ClassicSumJobData {
  const what = 'classic sum job';
  const fields = fieldsOf(data, what);
  const n = boardSize(fields, what);
  const unitKeys = keyList(fields, 'unitKeys', what, n);
  if (unitKeys.length === 0) {
    throw new InvalidInputError(`${what}.unitKeys`, unitKeys, 'every unit of Q(n), at least one');
  }
  const checkKeys =
    fields.checkKeys === undefined ? undefined : keyList(fields, 'checkKeys', what, n);
  if (checkKeys?.some((k) => !unitKeys.includes(k))) {
    throw new InvalidInputError(`${what}.checkKeys`, checkKeys, 'a subset of unitKeys');
  }
  return {
    problem: problemField(fields, what),
    sweepId: text(fields, 'sweepId', what, SWEEP_ID, 'a sweep id such as "s-lx3k2a"'),
    n,
    unitKeys,
    ...(checkKeys ? { checkKeys } : {}),
  };
}

export function parseClassicUnitResult(data: unknown): ClassicUnitResult {
  const what = 'classic unit result';
  const fields = fieldsOf(data, what);
  if (fields.kind !== 'classic-unit') {
    throw new InvalidInputError(`${what}.kind`, fields.kind, '"classic-unit"');
  }
  const n = boardSize(fields, what);
  const seconds = fields.seconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidInputError(`${what}.seconds`, seconds, 'a number of seconds ≥ 0');
  }
  return {
    kind: 'classic-unit',
    n,
    unit: unitOf(fields, 'unit', what, n),
    method: methodOf(fields, what),
    boards: text(fields, 'boards', what, DECIMAL, 'a decimal string'),
    classes: text(fields, 'classes', what, DECIMAL, 'a decimal string'),
    seconds,
    worker: text(fields, 'worker', what, /^.{1,200}$/, 'a worker id'),
    sweepId: text(fields, 'sweepId', what, SWEEP_ID, 'a sweep id'),
    ...roleOf(fields, what),
  };
}

export function parseClassicResult(data: unknown): ClassicResult {
  const what = 'classic result';
  const fields = fieldsOf(data, what);
  if (fields.kind !== 'classic')
    throw new InvalidInputError(`${what}.kind`, fields.kind, '"classic"');
  const n = boardSize(fields, what);
  const count = (name: string): number => {
    const value = fields[name];
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new InvalidInputError(`${what}.${name}`, value, 'a whole number ≥ 0');
    }
    return value as number;
  };
  const workers = fields.workers;
  if (!Array.isArray(workers) || !workers.every((w) => typeof w === 'string')) {
    throw new InvalidInputError(`${what}.workers`, workers, 'a list of worker ids');
  }
  const seconds = fields.seconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidInputError(`${what}.seconds`, seconds, 'a number of seconds ≥ 0');
  }
  return {
    kind: 'classic',
    n,
    Q: text(fields, 'Q', what, DECIMAL, 'a decimal string'),
    unique: text(fields, 'unique', what, DECIMAL, 'a decimal string'),
    units: count('units'),
    checked: count('checked'),
    seconds,
    workers: workers,
    sweepId: text(fields, 'sweepId', what, SWEEP_ID, 'a sweep id'),
    completedAt: text(fields, 'completedAt', what, /^.{1,40}$/, 'an ISO time'),
  };
}
