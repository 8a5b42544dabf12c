// Results that cannot be forged without the key: with WQ_RESULT_KEY set, every stored unit,
// N(n, D), S(n) and plan header carries an HMAC-SHA256 over its value and its provenance. Anyone
// who can write to Redis can still delete or corrupt a record, but cannot make a wrong value
// read as a result: a record whose MAC does not verify is not a result (result-store.ts and,
// for the classic problem's units and Q(n), classic-result-store.ts).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { CompletionRecord, DepthResult, UnitResult } from '../contracts/job-results.js';
import type { PlanHeader } from '../contracts/plan-record.js';
import type { ClassicResult, ClassicUnitResult } from '../contracts/classic-jobs.js';

/** What a MAC covers: the fields that make a record this result, in one fixed order. */
export function unitMessage(unit: UnitResult): string {
  return [
    'unit',
    unit.n,
    unit.depth,
    unit.role ?? 'primary',
    unit.unit,
    unit.algorithm,
    unit.weight ?? '',
    unit.planId ?? '',
    unit.value,
  ].join('|');
}

export function depthMessage(depth: DepthResult): string {
  return [
    'depth',
    depth.n,
    depth.depth,
    depth.role ?? 'primary',
    depth.algorithm,
    depth.units,
    depth.planId ?? '',
    depth.value,
  ].join('|');
}

export function sumMessage(record: CompletionRecord): string {
  const counts = (list: readonly DepthResult[] | undefined): string =>
    (list ?? []).map(depthMessage).join(';');
  return ['sum', record.n, record.S, record.sweepId, counts(record.depths), counts(record.checks)]
    .map(String)
    .join('|');
}

/** A classic unit's subtotals: which unit of Q(n), counted how, and by which sweep. */
export function classicUnitMessage(unit: ClassicUnitResult): string {
  return [
    'classic-unit',
    unit.n,
    unit.role ?? 'primary',
    unit.unit,
    unit.method,
    unit.sweepId,
    unit.boards,
    unit.classes,
  ].join('|');
}

/** Q(n) with its class count, over how many units (and second counts) it was summed. */
export function classicResultMessage(result: ClassicResult): string {
  return [
    'classic',
    result.n,
    result.units,
    result.checked,
    result.sweepId,
    result.Q,
    result.unique,
  ].join('|');
}

/**
 * A plan: its header and every unit key with its weight (sorted, since a Redis hash keeps no
 * order), so a plan with a unit left out or a weight changed no longer verifies.
 */
export function planMessage(
  header: PlanHeader,
  planId: string,
  weights: ReadonlyMap<string, number>,
): string {
  const digest = createHash('sha256');
  for (const key of [...weights.keys()].sort()) digest.update(`${key}=${weights.get(key)}\n`);
  return [
    'plan',
    header.n,
    header.depth,
    header.role,
    header.algorithm,
    header.units,
    planId,
    digest.digest('hex'),
  ].join('|');
}

/** Signs and checks result records under one secret. */
export class ResultSeal {
  readonly #key: Buffer;

  constructor(key: string) {
    this.#key = Buffer.from(key, 'utf8');
  }

  mac(message: string): string {
    return createHmac('sha256', this.#key).update(message).digest('hex');
  }

  /** True when `mac` is this key's MAC of `message` (compared in constant time). */
  verifies(message: string, mac: string | undefined): boolean {
    if (mac === undefined || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.mac(message), 'hex'), Buffer.from(mac, 'hex'));
  }
}

/** A record as it is signed: without the MAC of an earlier signature. */
export function withoutMac<T extends { readonly mac?: string }>(record: T): T {
  const copy: { mac?: string } = { ...record };
  delete copy.mac;
  return copy as T;
}

/** The seal of a configuration: present only when WQ_RESULT_KEY is set. */
export function resultSealOf(config: { readonly resultKey?: string }): ResultSeal | undefined {
  return config.resultKey === undefined ? undefined : new ResultSeal(config.resultKey);
}
