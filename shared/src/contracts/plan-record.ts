// What the producer recorded about each count it planned: the units of one (n, D) split, each
// with its weight, estimate and work bound. A worker counts only units found in such a record,
// and a sum adds only the full unit set of one, so a job nobody planned never becomes a result.
import { createHash } from 'node:crypto';
import { InvalidInputError } from '../kernel/errors.js';
import { type Algorithm, ALGORITHMS } from '../kernel/algorithms.js';
import type { Role } from './roles.js';

/** One planned unit, as a worker checks a unit job against it. */
export interface PlannedUnitRecord {
  readonly weight: 1 | 2 | 4;
  /** The kernel's estimate (single-core seconds, before calibration). */
  readonly modelSeconds: number;
  /** Past this many seconds the unit is failed with its reason instead of running on. */
  readonly boundSeconds: number;
}

/** The header of a plan: which count of which (n, D), by which algorithm, in how many units. */
export interface PlanHeader {
  readonly n: number;
  readonly depth: number;
  readonly role: Role;
  readonly algorithm: Algorithm;
  readonly units: number;
}

/**
 * A unit may run this many times its calibrated estimate, and at least MIN_BOUND_SECONDS,
 * before it is failed: generous enough for a noisy machine and an estimator that is off by
 * an order of magnitude, small enough that a unit that would run for years is stopped.
 */
export const BOUND_FACTOR = 50;
export const MIN_BOUND_SECONDS = 600;

/** The work bound of a unit expected to take `estimateSeconds` (calibrated). */
export function boundSeconds(estimateSeconds: number): number {
  return Math.max(MIN_BOUND_SECONDS, BOUND_FACTOR * estimateSeconds);
}

/** Plan ids name keys and job ids: lowercase hex. */
export const PLAN_ID = /^[0-9a-f]{12}$/;

/**
 * The id of a plan: a digest of everything that makes it this plan (the count, the algorithm
 * and the unit keys in order), so the same plan made twice has the same id.
 */
export function planIdOf(header: Omit<PlanHeader, 'units'>, keys: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`${header.n}/${header.depth}/${header.role}/${header.algorithm}\n`);
  for (const key of keys) hash.update(`${key}\n`);
  return hash.digest('hex').slice(0, 12);
}

/** Hash field of the header; unit keys never start with '#'. */
export const PLAN_HEADER_FIELD = '#';

export function encodePlannedUnit(unit: PlannedUnitRecord): string {
  return JSON.stringify([unit.weight, round(unit.modelSeconds), round(unit.boundSeconds)]);
}

function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

export function parsePlannedUnit(json: string): PlannedUnitRecord {
  const value: unknown = JSON.parse(json);
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    ![1, 2, 4].includes(value[0] as number) ||
    !isSeconds(value[1]) ||
    !isSeconds(value[2])
  ) {
    throw new InvalidInputError('plan unit', json, '[weight 1|2|4, model seconds, bound seconds]');
  }
  return { weight: value[0] as 1 | 2 | 4, modelSeconds: value[1], boundSeconds: value[2] };
}

export function parsePlanHeader(json: string): PlanHeader {
  const f = JSON.parse(json) as Record<string, unknown>;
  if (
    typeof f !== 'object' ||
    f === null ||
    !Number.isInteger(f.n) ||
    !Number.isInteger(f.depth) ||
    (f.role !== 'primary' && f.role !== 'check') ||
    !(ALGORITHMS as readonly unknown[]).includes(f.algorithm) ||
    !Number.isInteger(f.units)
  ) {
    throw new InvalidInputError('plan header', json, '{n, depth, role, algorithm, units}');
  }
  return {
    n: f.n as number,
    depth: f.depth as number,
    role: f.role,
    algorithm: f.algorithm as Algorithm,
    units: f.units as number,
  };
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
