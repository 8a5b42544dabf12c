// The values jobs return (BullMQ stores them as JSON) and the records the result store keeps.
// Counts are decimal strings; the parsers check every field of a value read back from Redis.
import { InvalidInputError } from '../kernel/errors.js';
import { type Algorithm, ALGORITHMS } from '../kernel/algorithms.js';
import { SWEEP_ID } from './job-payloads.js';

/** What a `unit` job returns: its share of N(n, D). */
export interface UnitResult {
  readonly kind: 'unit';
  readonly n: number;
  readonly depth: number;
  readonly unit: string;
  readonly value: string;
  readonly algorithm: Algorithm;
  readonly seconds: number;
  readonly worker: string;
  /** The planner's expected seconds (calibrated), shown next to `seconds`. */
  readonly estimateSeconds?: number;
  /** The kernel's own estimate before calibration; calibrates the next plans. */
  readonly modelSeconds?: number;
  /** `check`: a unit of the second count of a verified sweep. */
  readonly role?: 'check';
  /** The sweep whose job counted it (a later sweep may reuse it); older records lack it. */
  readonly sweepId?: string;
  /** When the kernel started on it (epoch ms, the worker's clock); older records lack it. */
  readonly startedAt?: number;
  /** The worker's kernel-pool slot that ran it (0 … concurrency − 1); older records lack it. */
  readonly slot?: number;
}

/** What a `depth` job returns (and what the result store keeps per (n, D)). */
export interface DepthResult {
  readonly kind: 'depth';
  readonly n: number;
  readonly depth: number;
  readonly value: string;
  readonly algorithm: Algorithm;
  readonly units: number;
  /** Single-core seconds summed over the units. */
  readonly seconds: number;
  readonly workers: readonly string[];
  /** The planner's expected seconds summed over the units, when every unit carried one. */
  readonly estimateSeconds?: number;
  /** `check`: the second count of a verified sweep. */
  readonly role?: 'check';
}

/** What the second count of a verified (n, D) returns: both counts, for the sum to compare. */
export interface VerifiedResult {
  readonly kind: 'verified';
  readonly n: number;
  readonly depth: number;
  readonly primary: DepthResult;
  readonly check: DepthResult;
}

/** Why S(n) was not published: counts that disagree, with every value. */
export interface Mismatch {
  readonly n: number;
  readonly sweepId: string;
  readonly at: string;
  readonly depths: readonly DepthMismatch[];
}

export interface DepthMismatch {
  readonly depth: number;
  /** The first count. */
  readonly value: string;
  readonly algorithm: Algorithm;
  readonly workers: readonly string[];
  /** The value it was checked against: a second count or a published reference. */
  readonly expected: string;
  /** The second count's algorithm, or the reference (`n^n`, `OEIS A000170`). */
  readonly expectedFrom: string;
  readonly expectedWorkers?: readonly string[];
}

/** What a `sum` job returns: S(n) and N(n, D) indexed by D. */
export interface SumResult {
  readonly kind: 'sum';
  readonly n: number;
  readonly S: string;
  readonly N: readonly string[];
}

/** Written with S(n): how it was computed. */
export interface CompletionRecord {
  readonly n: number;
  readonly S: string;
  readonly sweepId: string;
  readonly completedAt: string;
  /** Single-core seconds summed over every unit of every D. */
  readonly cpuSeconds: number;
  readonly depths: readonly DepthResult[];
  readonly workers: readonly string[];
  /** Verified sweeps: the second count of every D, in the order of `depths`. */
  readonly checks?: readonly DepthResult[];
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

export function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown, what: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInputError(what, value, 'an object');
  }
  return value as Fields;
}

function check<T>(ok: boolean, what: string, name: string, value: unknown, allowed: string): T {
  if (!ok) throw new InvalidInputError(`${what}.${name}`, value, allowed);
  return value as T;
}

function common(f: Fields, what: string) {
  return {
    n: check<number>(Number.isInteger(f.n) && (f.n as number) >= 1, what, 'n', f.n, 'n ≥ 1'),
    depth: check<number>(
      Number.isInteger(f.depth) && (f.depth as number) >= 0,
      what,
      'depth',
      f.depth,
      'D ≥ 0',
    ),
    value: check<string>(isDecimal(f.value), what, 'value', f.value, 'a decimal string'),
    algorithm: check<Algorithm>(
      (ALGORITHMS as readonly unknown[]).includes(f.algorithm),
      what,
      'algorithm',
      f.algorithm,
      ALGORITHMS.join(', '),
    ),
    seconds: check<number>(
      typeof f.seconds === 'number' && f.seconds >= 0,
      what,
      'seconds',
      f.seconds,
      'a number ≥ 0',
    ),
  };
}

export function parseUnitResult(value: unknown): UnitResult {
  const what = 'unit result';
  const f = fieldsOf(value, what);
  check(f.kind === 'unit', what, 'kind', f.kind, '"unit"');
  return {
    kind: 'unit',
    ...common(f, what),
    unit: check<string>(typeof f.unit === 'string', what, 'unit', f.unit, 'a unit key'),
    worker: check<string>(typeof f.worker === 'string', what, 'worker', f.worker, 'a worker id'),
    ...optionalSeconds(f, what, 'estimateSeconds'),
    ...optionalSeconds(f, what, 'modelSeconds'),
    ...optionalRole(f, what),
    ...optionalSweepId(f, what),
    ...optionalInteger(f, what, 'startedAt', 'epoch milliseconds'),
    ...optionalInteger(f, what, 'slot', 'a slot index'),
  };
}

function optionalSweepId(f: Fields, what: string): { sweepId?: string } {
  if (f.sweepId === undefined) return {};
  const ok = typeof f.sweepId === 'string' && SWEEP_ID.test(f.sweepId);
  return { sweepId: check<string>(ok, what, 'sweepId', f.sweepId, 'a sweep id or absent') };
}

/** `{ [name]: integer }` when the field is present (older records lack it), else `{}`. */
function optionalInteger<K extends string>(
  f: Fields,
  what: string,
  name: K,
  allowed: string,
): { [key in K]?: number } {
  const value = f[name];
  if (value === undefined) return {};
  check(
    Number.isSafeInteger(value) && (value as number) >= 0,
    what,
    name,
    value,
    `${allowed} (an integer ≥ 0)`,
  );
  return { [name]: value } as { [key in K]?: number };
}

function optionalRole(f: Fields, what: string): { role?: 'check' } {
  if (f.role === undefined) return {};
  return { role: check<'check'>(f.role === 'check', what, 'role', f.role, '"check" or absent') };
}

/** `{ [name]: seconds }` when the field is present (older records lack it), else `{}`. */
function optionalSeconds<K extends string>(
  f: Fields,
  what: string,
  name: K,
): { [key in K]?: number } {
  const value = f[name];
  if (value === undefined) return {};
  check(typeof value === 'number' && value >= 0, what, name, value, 'a number ≥ 0');
  return { [name]: value } as { [key in K]?: number };
}

export function parseDepthResult(value: unknown): DepthResult {
  const what = 'depth result';
  const f = fieldsOf(value, what);
  check(f.kind === 'depth', what, 'kind', f.kind, '"depth"');
  return {
    kind: 'depth',
    ...common(f, what),
    units: check<number>(
      Number.isInteger(f.units) && (f.units as number) >= 1,
      what,
      'units',
      f.units,
      'an integer ≥ 1',
    ),
    workers: check<string[]>(
      Array.isArray(f.workers) && f.workers.every((w) => typeof w === 'string'),
      what,
      'workers',
      f.workers,
      'a list of worker ids',
    ),
    ...optionalSeconds(f, what, 'estimateSeconds'),
    ...optionalRole(f, what),
  };
}

/** A child value of a `sum` job: a depth result, or the unit result of an unsplit (n, D). */
export function parseChildResult(value: unknown): DepthResult {
  const f = fieldsOf(value, 'child result');
  if (f.kind === 'unit') return wholeDepth(parseUnitResult(value));
  return parseDepthResult(value);
}

/** A child of a `sum` job: one count of an (n, D), or both counts of a verified one. */
export function parseSumChild(value: unknown): { primary: DepthResult; check?: DepthResult } {
  const f = fieldsOf(value, 'child result');
  if (f.kind !== 'verified') return { primary: parseChildResult(value) };
  const primary = parseChildResult(f.primary);
  const second = parseChildResult(f.check);
  if (primary.n !== second.n || primary.depth !== second.depth || second.role !== 'check') {
    throw new InvalidInputError(
      'child result.check',
      f.check,
      'the second count of the same (n, D)',
    );
  }
  return { primary, check: second };
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
  };
}

/** A Mismatch read back from the result store (`wq status` shows it as the reason). */
export function parseMismatch(value: unknown): Mismatch {
  const what = 'mismatch';
  const f = fieldsOf(value, what);
  const strings = (v: unknown): boolean =>
    Array.isArray(v) && v.every((w) => typeof w === 'string');
  const depths = check<unknown[]>(Array.isArray(f.depths), what, 'depths', f.depths, 'a list');
  return {
    n: check<number>(Number.isInteger(f.n) && (f.n as number) >= 1, what, 'n', f.n, 'n ≥ 1'),
    sweepId: check<string>(
      typeof f.sweepId === 'string' && SWEEP_ID.test(f.sweepId),
      what,
      'sweepId',
      f.sweepId,
      'a sweep id',
    ),
    at: check<string>(typeof f.at === 'string', what, 'at', f.at, 'an ISO time'),
    depths: depths.map((item, i) => {
      const at = `${what}.depths[${i}]`;
      const d = fieldsOf(item, at);
      return {
        depth: check<number>(
          Number.isInteger(d.depth) && (d.depth as number) >= 0,
          at,
          'depth',
          d.depth,
          'D ≥ 0',
        ),
        value: check<string>(isDecimal(d.value), at, 'value', d.value, 'a decimal string'),
        algorithm: check<Algorithm>(
          (ALGORITHMS as readonly unknown[]).includes(d.algorithm),
          at,
          'algorithm',
          d.algorithm,
          ALGORITHMS.join(', '),
        ),
        workers: check<string[]>(strings(d.workers), at, 'workers', d.workers, 'worker ids'),
        expected: check<string>(
          isDecimal(d.expected),
          at,
          'expected',
          d.expected,
          'a decimal string',
        ),
        expectedFrom: check<string>(
          typeof d.expectedFrom === 'string',
          at,
          'expectedFrom',
          d.expectedFrom,
          'an algorithm or a reference',
        ),
        ...(d.expectedWorkers === undefined
          ? {}
          : {
              expectedWorkers: check<string[]>(
                strings(d.expectedWorkers),
                at,
                'expectedWorkers',
                d.expectedWorkers,
                'worker ids or absent',
              ),
            }),
      };
    }),
  };
}

/** A CompletionRecord read back from the result store. */
export function parseCompletionRecord(value: unknown): CompletionRecord {
  const what = 'completion record';
  const f = fieldsOf(value, what);
  const depthList = (name: string, v: unknown): DepthResult[] =>
    check<unknown[]>(Array.isArray(v), what, name, v, 'a list of depth results').map(
      parseDepthResult,
    );
  return {
    n: check<number>(Number.isInteger(f.n) && (f.n as number) >= 1, what, 'n', f.n, 'n ≥ 1'),
    S: check<string>(isDecimal(f.S), what, 'S', f.S, 'a decimal string'),
    sweepId: check<string>(
      typeof f.sweepId === 'string' && SWEEP_ID.test(f.sweepId),
      what,
      'sweepId',
      f.sweepId,
      'a sweep id',
    ),
    completedAt: check<string>(
      typeof f.completedAt === 'string',
      what,
      'completedAt',
      f.completedAt,
      'an ISO time',
    ),
    cpuSeconds: check<number>(
      typeof f.cpuSeconds === 'number' && f.cpuSeconds >= 0,
      what,
      'cpuSeconds',
      f.cpuSeconds,
      'a number ≥ 0',
    ),
    depths: depthList('depths', f.depths),
    workers: check<string[]>(
      Array.isArray(f.workers) && f.workers.every((w) => typeof w === 'string'),
      what,
      'workers',
      f.workers,
      'a list of worker ids',
    ),
    ...(f.checks === undefined ? {} : { checks: depthList('checks', f.checks) }),
  };
}
