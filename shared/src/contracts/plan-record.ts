// What the producer recorded about each count it planned: the units of one (n, D) split, each
// with its weight, estimate and work bound. A worker counts only units found in such a record,
// and a sum adds only the full unit set of one, so a job nobody planned never becomes a result.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { ALGORITHMS } from '../kernel/algorithms.js';
import { parseJson, record } from './schema.js';

const seconds = v.pipe(v.number(), v.finite(), v.minValue(0));

/**
 * One planned unit, as a worker checks a unit job against it: stored as the tuple
 * [weight, model seconds (the kernel's, before calibration), bound seconds (past them the
 * unit is failed with its reason instead of running on)] since a plan may hold 100,000 units.
 */
export const PlannedUnitSchema = v.message(
  v.pipe(
    v.tuple([v.picklist([1, 2, 4]), seconds, seconds]),
    v.transform(([weight, modelSeconds, boundSeconds]) => ({ weight, modelSeconds, boundSeconds })),
    v.readonly(),
  ),
  '[weight 1|2|4, model seconds, bound seconds]',
);
export type PlannedUnitRecord = v.InferOutput<typeof PlannedUnitSchema>;

const count = (min: number) =>
  v.message(v.pipe(v.number(), v.integer(), v.minValue(min)), `an integer ≥ ${min}`);

/** The header of a plan: which count of which (n, D), by which algorithm, in how many units. */
export const PlanHeaderSchema = record({
  n: count(1),
  depth: count(0),
  role: v.picklist(['primary', 'check'], '"primary" or "check"'),
  algorithm: v.picklist(ALGORITHMS, `one of ${ALGORITHMS.join(', ')}`),
  units: count(1),
  /**
   * The protocol of the build that planned it (protocol.ts); absent: protocol 1. Left out of
   * the MAC, so that builds which know no such field still verify the plan.
   */
  protocol: v.optional(count(1)),
  /** HMAC under WQ_RESULT_KEY over the header and every unit's key and weight. */
  mac: v.optional(v.message(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), '64 hex digits')),
});
export type PlanHeader = v.InferOutput<typeof PlanHeaderSchema>;

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
  return parseJson(PlannedUnitSchema, json, 'plan unit');
}

export function parsePlanHeader(json: string): PlanHeader {
  return parseJson(PlanHeaderSchema, json, 'plan header');
}
