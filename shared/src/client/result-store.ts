// The result store: what the pipeline has computed, by n, by (n, D) and by unit. Workers write
// it, the producer reads it to skip finished work, the CLI shows it. Every read is validated.
import type { RedisClient } from './connection.js';
import { KeyedStore } from './keyed-store.js';
import {
  type CompletionRecord,
  CompletionRecordSchema,
  type DepthResult,
  DepthResultSchema,
  isDecimal,
  type Mismatch,
  MismatchSchema,
  type UnitResult,
  UnitResultSchema,
} from '../contracts/job-results.js';
import { type Disagreement, DisagreementSchema } from '../contracts/disagreement.js';
import { parseJson } from '../contracts/schema.js';
import { type StoreKeys, storeKeys } from '../contracts/store-keys.js';
import type { Role } from '../contracts/roles.js';
import { knownSum } from '../contracts/references.js';
import { depthMessage, type ResultSeal, sumMessage, unitMessage } from './result-seal.js';
import {
  type Calibration,
  CALIBRATION_MIN_MODEL_SECONDS,
  calibrationFromFields,
  corruptCalibration,
} from '../contracts/calibration.js';

import { PUT_UNIT, PUT_UNIT_SEEN, STORED_PROGRESS, VOUCH_UNIT } from './commands/index.js';
import { PlanRecords } from './plan-records.js';
import {
  parseStoredProgress,
  type StoredSize,
  storedProgressKeys,
  storedProgressSizes,
} from './stored-progress.js';
import { readUnit, stringList, withoutMac } from './store-records.js';

export type { Role } from '../contracts/roles.js';
export type { Disagreement } from '../contracts/disagreement.js';
export type { StoredSize } from './stored-progress.js';

/** How a unit's result met the store. */
export type PutUnitOutcome = 'stored' | 'duplicate' | 'conflict';

function putUnitOutcome(reply: unknown): PutUnitOutcome {
  return reply === 1 ? 'stored' : reply === 2 ? 'duplicate' : 'conflict';
}

/** Largest model seconds one unit may add to the calibration sums (a day on one core). */
const MAX_CALIBRATING_SECONDS = 86_400;

export interface ResultStoreOptions {
  /** WQ_RESULT_KEY's seal: records are signed when written and checked when read. */
  readonly seal?: ResultSeal;
}

export class ResultStore extends KeyedStore<StoreKeys> {
  readonly seal: ResultSeal | undefined;
  /** The recorded plans (putPlan, plan, plannedUnit and planUnitKeys read and write them). */
  readonly #plans: PlanRecords;

  constructor(redis: RedisClient, prefix: string, options: ResultStoreOptions = {}) {
    super(redis, storeKeys(prefix));
    this.seal = options.seal;
    this.#plans = new PlanRecords(redis, this.keys, options.seal);
  }

  /** True when results are signed and checked (WQ_RESULT_KEY is set). */
  get authenticated(): boolean {
    return this.seal !== undefined;
  }

  /** A unit record that is a result: not an unverified import, and sealed when keyed. */
  trustsUnit(unit: UnitResult): boolean {
    if (unit.unverified) return false;
    return !this.seal || this.seal.verifies(unitMessage(unit), unit.mac);
  }

  trustsDepth(depth: DepthResult): boolean {
    return !this.seal || this.seal.verifies(depthMessage(depth), depth.mac);
  }

  trustsRecord(record: CompletionRecord): boolean {
    return !this.seal || this.seal.verifies(sumMessage(record), record.mac);
  }

  #sealUnit(unit: UnitResult): UnitResult {
    const rest = withoutMac(unit);
    return this.seal ? { ...rest, mac: this.seal.mac(unitMessage(rest)) } : rest;
  }

  #sealDepth(depth: DepthResult): DepthResult {
    const rest = withoutMac(depth);
    return this.seal ? { ...rest, mac: this.seal.mac(depthMessage(rest)) } : rest;
  }

  #sealRecord(record: CompletionRecord): CompletionRecord {
    const rest = withoutMac(record);
    return this.seal ? { ...rest, mac: this.seal.mac(sumMessage(rest)) } : rest;
  }

  /**
   * Keeps a record that failed its MAC check aside as a disagreement (`wq verify` lists it,
   * `--repair` forgets it with the counts of its (n, D) so they are counted again).
   */
  async #noteForged(
    what: { n: number; depth: number; role: Role; unit: string },
    value: string,
  ): Promise<void> {
    const disagreement: Disagreement = {
      ...what,
      stored: isDecimal(value) ? value : '',
      storedWorker: '',
      counted: isDecimal(value) ? value : '0',
      countedWorker: '',
      at: new Date().toISOString(),
      reason: FORGED_REASON,
    };
    await this.redis.hset(
      this.keys.disagreements,
      disagreementField(what.n, what.depth, what.role, what.unit),
      JSON.stringify(disagreement),
    );
  }

  /** Units of a unit map that are results; the rest reported (bad MACs) and left out. */
  async #trustedUnits(found: Map<string, UnitResult>): Promise<Map<string, UnitResult>> {
    for (const [key, unit] of found) {
      if (this.trustsUnit(unit)) continue;
      found.delete(key);
      if (!unit.unverified) {
        await this.#noteForged(
          { n: unit.n, depth: unit.depth, role: unit.role ?? 'primary', unit: key },
          unit.value,
        );
      }
    }
    return found;
  }

  /**
   * Stores a unit's result. The first time a unit is stored, its measured and estimated seconds
   * also go into the calibration sums (one script, so a unit delivered twice counts once). With
   * `depth` (a unit that is its whole (n, D)), N(n, D) is written in the same step unless the
   * unit's count conflicts with the stored one.
   */
  async putUnit(counted: UnitResult, depth?: DepthResult): Promise<PutUnitOutcome> {
    const role: Role = counted.role === 'check' ? 'check' : 'primary';
    const units =
      role === 'check'
        ? this.keys.checkUnits(counted.n, counted.depth)
        : this.keys.units(counted.n, counted.depth);
    const keys = {
      units,
      calibration: this.keys.calibration,
      disagreements: this.keys.disagreements,
      counters: this.keys.counters,
      depths: role === 'check' ? this.keys.checkDepths(counted.n) : this.keys.depths(counted.n),
    };
    // Only plausible pairs calibrate: one absurd value would skew every later plan for good.
    const calibrates =
      counted.modelSeconds !== undefined &&
      counted.modelSeconds >= CALIBRATION_MIN_MODEL_SECONDS &&
      counted.modelSeconds <= MAX_CALIBRATING_SECONDS &&
      counted.seconds <= MAX_CALIBRATING_SECONDS;
    const result = this.#sealUnit(counted);
    const write = {
      unit: result.unit,
      result: JSON.stringify(result),
      algorithm: calibrates ? result.algorithm : '',
      modelSeconds: String(result.modelSeconds ?? 0),
      actualSeconds: String(result.seconds),
      value: result.value,
      disagreementField: disagreementField(result.n, result.depth, role, result.unit),
      depth: depth ? String(depth.depth) : '',
      depthResult: depth ? JSON.stringify(this.#sealDepth(depth)) : '',
    };
    // A unit is almost always new: written in one round trip. Only when one is stored already
    // does the script write nothing and ask for the stored record to be judged here first.
    const unread = await PUT_UNIT.run(this.redis, keys, {
      ...write,
      disagreement: '',
      untrusted: '',
      importNote: '',
      read: '',
    });
    if (unread !== PUT_UNIT_SEEN) return putUnitOutcome(unread);
    const existing = await this.redis.hget(units, result.unit);
    const untrusted = existing !== null && !this.#readsAsTrusted(existing);
    const disagreement: Disagreement = {
      n: result.n,
      depth: result.depth,
      role,
      unit: result.unit,
      stored: existing === null ? '' : storedField(existing, 'value'),
      storedWorker: existing === null ? '' : storedField(existing, 'worker'),
      counted: result.value,
      countedWorker: result.worker,
      at: new Date().toISOString(),
    };
    const outcome = await PUT_UNIT.run(this.redis, keys, {
      ...write,
      disagreement: JSON.stringify(disagreement),
      untrusted: untrusted && existing !== null ? existing : '',
      importNote: JSON.stringify({
        ...disagreement,
        reason: 'an unverified import held this value; the count replaced it',
      }),
      read: 'read',
    });
    return putUnitOutcome(outcome);
  }

  /** True when a stored unit record reads as a result (schema, not unverified, MAC). */
  #readsAsTrusted(json: string): boolean {
    const unit = readUnit(json);
    return unit !== undefined && this.trustsUnit(unit);
  }

  /** Counts one more unit begun by a worker (a unit begun twice was re-run after a fault). */
  async noteUnitStart(): Promise<void> {
    await this.redis.hincrby(this.keys.counters, 'starts', 1);
  }

  /** Units begun, and units counted again with the same value, since the store was new. */
  async counters(): Promise<{ starts: number; duplicates: number }> {
    const [starts, duplicates] = await this.redis.hmget(this.keys.counters, 'starts', 'duplicates');
    const count = (text: string | null | undefined): number => {
      const value = Number(text ?? 0);
      return Number.isSafeInteger(value) && value >= 0 ? value : 0;
    };
    return { starts: count(starts), duplicates: count(duplicates) };
  }

  /** Units counted twice with different values, oldest first. */
  /**
   * The disagreements kept. One about a record whose MAC did not verify (another key's, or
   * forged) is settled once the record in its place verifies (counted again, or re-signed) or
   * is gone: it is dropped then, so no stale one outlives a recount or a key rotation.
   */
  async disagreements(): Promise<Disagreement[]> {
    const raw = await this.redis.hgetall(this.keys.disagreements);
    const kept: Disagreement[] = [];
    const settled: string[] = [];
    for (const [field, json] of Object.entries(raw)) {
      const disagreement = parseJson(DisagreementSchema, json, 'disagreement');
      if (disagreement.reason === FORGED_REASON && (await this.#settled(disagreement))) {
        settled.push(field);
      } else kept.push(disagreement);
    }
    if (settled.length > 0) await this.redis.hdel(this.keys.disagreements, ...settled);
    return kept.sort((a, b) => a.at.localeCompare(b.at));
  }

  /** Whether the record a bad-MAC disagreement names now verifies, or is no longer there. */
  async #settled(d: Disagreement): Promise<boolean> {
    try {
      return await this.#verifiesNow(d);
    } catch {
      return false; // unreadable: still not a result
    }
  }

  async #verifiesNow(d: Disagreement): Promise<boolean> {
    const check = d.role === 'check';
    if (d.unit === '#S') {
      const json = await this.redis.hget(this.keys.records, String(d.n));
      return json === null || this.trustsRecord(parseJson(CompletionRecordSchema, json, 'record'));
    }
    if (d.unit === '#N') {
      const hash = check ? this.keys.checkDepths(d.n) : this.keys.depths(d.n);
      const json = await this.redis.hget(hash, String(d.depth));
      return json === null || this.trustsDepth(parseJson(DepthResultSchema, json, 'depth result'));
    }
    if (d.unit.startsWith('#')) return false;
    const hash = check ? this.keys.checkUnits(d.n, d.depth) : this.keys.units(d.n, d.depth);
    const json = await this.redis.hget(hash, d.unit);
    return json === null || this.trustsUnit(parseJson(UnitResultSchema, json, 'unit result'));
  }

  /**
   * Settles the disagreements of (n, D): the unit counts of both sides are forgotten, with
   * N(n, D) and S(n), so that the next sweep counts them again from scratch.
   */
  async forgetDisagreements(n: number, depth: number): Promise<number> {
    const fields = (await this.redis.hkeys(this.keys.disagreements)).filter((f) =>
      f.startsWith(`${n}:${depth}:`),
    );
    if (fields.length === 0) return 0;
    await this.redis
      .multi()
      .hdel(this.keys.disagreements, ...fields)
      .del(this.keys.units(n, depth), this.keys.checkUnits(n, depth))
      .hdel(this.keys.depths(n), String(depth))
      .hdel(this.keys.checkDepths(n), String(depth))
      .hdel(this.keys.sums, String(n))
      .hdel(this.keys.records, String(n))
      .exec();
    return fields.length;
  }

  /** Forgets these stored N(n, D) (that no plan's units bear out), with S(n). */
  async forgetDepths(
    n: number,
    depths: readonly { readonly depth: number; readonly role: Role }[],
  ): Promise<void> {
    if (depths.length === 0) return;
    const drop = this.redis
      .multi()
      .hdel(this.keys.sums, String(n))
      .hdel(this.keys.records, String(n));
    for (const { depth, role } of depths) {
      drop.hdel(role === 'check' ? this.keys.checkDepths(n) : this.keys.depths(n), String(depth));
    }
    await drop.exec();
  }

  /** Forgets every second count of n (before a fresh recount of what is stored). */
  async forgetChecks(n: number): Promise<void> {
    const drop = this.redis.multi().del(this.keys.checkDepths(n));
    for (let depth = 0; depth < n; depth++) drop.del(this.keys.checkUnits(n, depth));
    await drop.exec();
  }

  /** Records a plan's units (in slices, so a plan of 100,000 units is not one huge command). */
  async putPlan(...args: Parameters<PlanRecords['put']>): Promise<void> {
    await this.#plans.put(...args);
  }

  /** Records several plans in one transaction (see PlanRecords.putAll). */
  async putPlans(...args: Parameters<PlanRecords['putAll']>): Promise<void> {
    await this.#plans.putAll(...args);
  }

  /** One unit of a recorded plan with its header, or undefined when the plan has no such unit. */
  async plannedUnit(...args: Parameters<PlanRecords['unit']>): ReturnType<PlanRecords['unit']> {
    return this.#plans.unit(...args);
  }

  /**
   * A recorded plan: its header and every unit with its weight, or undefined when there is no
   * such plan, or (keyed) its MAC does not verify.
   */
  async plan(...args: Parameters<PlanRecords['get']>): ReturnType<PlanRecords['get']> {
    return this.#plans.get(...args);
  }

  /** The unit keys of a recorded plan, or undefined when there is no such plan. */
  async planUnitKeys(
    ...args: Parameters<PlanRecords['unitKeys']>
  ): ReturnType<PlanRecords['unitKeys']> {
    return this.#plans.unitKeys(...args);
  }

  /** Per algorithm, measured against estimated seconds of the stored units. */
  async calibration(): Promise<Calibration> {
    const fields = await this.redis.hgetall(this.keys.calibration);
    const corrupt = corruptCalibration(fields);
    if (corrupt.length > 0) {
      // Sums no real unit could have written: forget them, so calibration starts over.
      await this.redis.hdel(
        this.keys.calibration,
        ...corrupt.flatMap((a) => [`${a}:units`, `${a}:model`, `${a}:actual`]),
      );
    }
    return calibrationFromFields(fields);
  }

  /** N(n, D) (or, with role `check`, its second count). */
  async putDepth(result: DepthResult): Promise<void> {
    const key =
      result.role === 'check' ? this.keys.checkDepths(result.n) : this.keys.depths(result.n);
    await this.redis.hset(key, String(result.depth), JSON.stringify(this.#sealDepth(result)));
  }

  /**
   * Records why S(n) was not published and forgets the counts in question (both of them), so a
   * retry counts them again instead of finding them stored.
   */
  async putMismatch(mismatch: Mismatch): Promise<void> {
    const { n } = mismatch;
    // A published S(n) that a recount contradicts is withdrawn with the counts in question.
    const forget = this.redis
      .multi()
      .hset(this.keys.mismatches, String(n), JSON.stringify(mismatch))
      .hdel(this.keys.sums, String(n))
      .hdel(this.keys.records, String(n));
    for (const { depth } of mismatch.depths) {
      forget
        .hdel(this.keys.depths(n), String(depth))
        .hdel(this.keys.checkDepths(n), String(depth))
        .del(this.keys.units(n, depth), this.keys.checkUnits(n, depth));
    }
    await forget.exec();
  }

  async mismatch(n: number): Promise<Mismatch | undefined> {
    const json = await this.redis.hget(this.keys.mismatches, String(n));
    return json === null ? undefined : parseJson(MismatchSchema, json, `mismatch of n = ${n}`);
  }

  /** S(n) and its record in one transaction, so a reader never sees one without the other. */
  async putSum(unsealed: CompletionRecord): Promise<void> {
    const record = this.#sealRecord(unsealed);
    await this.redis
      .multi()
      .hset(this.keys.records, String(record.n), JSON.stringify(record))
      .hset(this.keys.sums, String(record.n), record.S)
      .hset(this.keys.sweepDone(record.sweepId), String(record.n), record.completedAt)
      // A disagreement from an earlier attempt is settled once S(n) is published, and so are
      // the N(n, D) records found to disagree with an earlier record (counted again since).
      .hdel(this.keys.mismatches, String(record.n))
      .hdel(
        this.keys.disagreements,
        ...record.depths.map((d) =>
          disagreementField(record.n, d.depth, 'primary', RECORD_DISAGREEMENT),
        ),
      )
      .exec();
  }

  /** S(n) for the sizes that have one; sizes without a value are absent, never 0. */
  async sums(ns: readonly number[]): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    if (ns.length === 0) return found;
    const [[values, records], depthFields] = await Promise.all([
      this.#sumsWithRecords(ns),
      Promise.all(ns.map((n) => this.redis.hgetall(this.keys.depths(n)))),
    ]);
    for (const [i, n] of ns.entries()) {
      const value = values[i];
      if (!isDecimal(value)) continue;
      const record = await this.#holdingRecord(n, value, records[i] ?? null);
      if (!record) continue;
      const depths = this.#trustedDepthValues(n, depthFields[i] ?? {});
      if (await this.#agreesWithDepths(record, depths)) found.set(n, value);
    }
    return found;
  }

  /** Whether every n has an S(n) stored, unchecked (see holdsEvery). */
  sumsStored(ns: readonly number[]): Promise<boolean> {
    return this.holdsEvery(this.keys.sums, ns);
  }

  /**
   * The n that have an S(n) or a record stored at all, whether or not it holds (`wq verify`
   * recounts those whose S(n) does not).
   */
  async storedSizes(ns: readonly number[]): Promise<number[]> {
    if (ns.length === 0) return [];
    const [values, records] = await this.#sumsWithRecords(ns);
    return ns.filter((_, i) => values[i] != null || records[i] != null);
  }

  /** The stored S(n) and records of these n, read side by side (one round trip). */
  #sumsWithRecords(ns: readonly number[]): Promise<[(string | null)[], (string | null)[]]> {
    const fields = ns.map(String);
    return Promise.all([
      this.redis.hmget(this.keys.sums, ...fields),
      this.redis.hmget(this.keys.records, ...fields),
    ]);
  }

  /**
   * S(n)'s record, when S(n) as stored is a result beside it: the record must say the same S,
   * add up to it, match the published S(n) when there is one, and (keyed) carry a MAC that
   * verifies. (The N(n, D) stored beside it must agree too: see agreesWithDepths.)
   */
  async #holdingRecord(
    n: number,
    S: string,
    json: string | null,
  ): Promise<CompletionRecord | undefined> {
    if (json === null) return undefined;
    let record: CompletionRecord;
    try {
      record = parseJson(CompletionRecordSchema, json, `record of n = ${n}`);
    } catch {
      return undefined;
    }
    const total = record.depths.reduce((t, d) => t + BigInt(d.value), 0n).toString();
    const known = knownSum(n);
    if (record.n !== n || record.S !== S || total !== S || (known && known.value !== S)) {
      return undefined;
    }
    if (this.trustsRecord(record)) return record;
    await this.#noteForged({ n, depth: 0, role: 'primary', unit: '#S' }, S);
    return undefined;
  }

  /** The values of a raw N(n, D) hash that read as results here, by D (see depths). */
  #trustedDepthValues(n: number, fields: Record<string, string>): Map<number, string> {
    const values = new Map<number, string>();
    for (const [field, json] of Object.entries(fields)) {
      try {
        const result = parseJson(DepthResultSchema, json, 'depth result');
        if (result.n === n && String(result.depth) === field && this.trustsDepth(result)) {
          values.set(result.depth, result.value);
        }
      } catch {
        // Not a result: S(n) does not agree with it, below.
      }
    }
    return values;
  }

  /**
   * Whether every N(n, D) stored beside S(n)'s record says what the record says. One that was
   * edited, or went, is a disagreement: named, and S(n) is no result until the next sweep of n
   * has counted that D again (the planner finds it unproven, since it no longer matches its
   * units either).
   */
  async #agreesWithDepths(
    record: CompletionRecord,
    stored: ReadonlyMap<number, string>,
  ): Promise<boolean> {
    const wrong = record.depths.filter((d) => stored.get(d.depth) !== d.value);
    for (const d of wrong) {
      const value = stored.get(d.depth);
      const disagreement: Disagreement = {
        n: record.n,
        depth: d.depth,
        role: 'primary',
        unit: RECORD_DISAGREEMENT,
        stored: value ?? '',
        storedWorker: '',
        counted: d.value,
        countedWorker: d.workers.join(','),
        at: new Date().toISOString(),
        reason:
          value === undefined
            ? `N(${record.n}, ${d.depth}) is missing beside S(${record.n})'s record, or not a result`
            : `N(${record.n}, ${d.depth}) is ${value} here but ${d.value} in S(${record.n})'s record`,
      };
      await this.redis.hset(
        this.keys.disagreements,
        disagreementField(record.n, d.depth, 'primary', RECORD_DISAGREEMENT),
        JSON.stringify(disagreement),
      );
    }
    return wrong.length === 0;
  }

  /**
   * Everything stored about these n that a progress read needs, in one round trip (one script),
   * whatever the number of (n, D). With `unitSeconds`, the unit results of every unfinished D
   * are read too (validated) and summed to the seconds spent on it so far.
   */
  async progress(
    ns: readonly number[],
    options: { unitSeconds?: boolean } = {},
  ): Promise<Map<number, StoredSize>> {
    if (ns.length === 0) return new Map<number, StoredSize>();
    const reply = await STORED_PROGRESS.run(
      this.redis,
      { sums: this.keys.sums, mismatches: this.keys.mismatches, records: this.keys.records },
      { unitSeconds: options.unitSeconds ? '1' : '0' },
      { keys: storedProgressKeys(this.keys, ns), args: ns.map(String) },
    );
    const sizes = storedProgressSizes(reply);
    // A stored S is shown only when its record holds (see sums), read in the same script.
    const holding = new Map<number, CompletionRecord>();
    for (const [i, n] of ns.entries()) {
      const [S, , , , , json] = (sizes[i] ?? []) as unknown[];
      const record =
        isDecimal(S) && typeof json === 'string' && json !== ''
          ? await this.#holdingRecord(n, S, json)
          : undefined;
      if (record) holding.set(n, record);
    }
    const parsed = parseStoredProgress(reply, ns, {
      holding: new Set(holding.keys()),
      trustsDepth: (depth) => this.trustsDepth(depth),
      unitSeconds: options.unitSeconds ?? false,
    });
    // ... and only when the N(n, D) beside it agree with its record (see sums).
    for (const [n, record] of holding) {
      const size = parsed.get(n);
      if (!size) continue;
      const values = new Map([...size.depths].map(([d, depth]) => [d, depth.value]));
      if (await this.#agreesWithDepths(record, values)) continue;
      const rest = { ...size };
      delete (rest as { S?: string }).S;
      parsed.set(n, rest);
    }
    return parsed;
  }

  /**
   * Every stored unit result of these n, both counts (one round trip); undefined stands for a
   * record that does not read as a unit result (the timeline counts those as untimed).
   */
  async unitResults(ns: readonly number[]): Promise<(UnitResult | undefined)[]> {
    const read = this.redis.pipeline();
    for (const n of ns) {
      for (let d = 0; d < n; d++)
        read.hvals(this.keys.units(n, d)).hvals(this.keys.checkUnits(n, d));
    }
    const replies = (await read.exec()) ?? [];
    return replies.flatMap(([, jsons]) => stringList(jsons).map(readUnit));
  }

  /** When each sweep's last n was stored, for the sweeps whose every n is (one round trip). */
  async completionTimes(
    sweeps: readonly { readonly id: string; readonly ns: readonly number[] }[],
  ): Promise<Map<string, number>> {
    const times = new Map<string, number>();
    if (sweeps.length === 0) return times;
    const read = this.redis.pipeline();
    for (const s of sweeps) read.hvals(this.keys.sweepDone(s.id));
    const replies = (await read.exec()) ?? [];
    sweeps.forEach((s, i) => {
      const values = stringList(replies[i]?.[1]).map((v) => Date.parse(v));
      if (values.length > 0 && values.length >= s.ns.length && values.every(Number.isFinite)) {
        times.set(s.id, Math.max(...values));
      }
    });
    return times;
  }

  async depths(n: number, role: Role = 'primary'): Promise<Map<number, DepthResult>> {
    const raw = await this.redis.hgetall(
      role === 'check' ? this.keys.checkDepths(n) : this.keys.depths(n),
    );
    const found = new Map<number, DepthResult>();
    for (const [field, json] of Object.entries(raw)) {
      const result = parseJson(DepthResultSchema, json, 'depth result');
      if (result.n !== n || String(result.depth) !== field) continue;
      if (this.trustsDepth(result)) found.set(result.depth, result);
      else await this.#noteForged({ n, depth: result.depth, role, unit: '#N' }, result.value);
    }
    return found;
  }

  /**
   * The stored units of (n, D) that are results. With `pending`, imported units nobody has
   * vouched for yet are included too (flagged `unverified`): a verified sweep counts the (n, D)
   * a second time instead of counting them again, and vouches for them if the counts agree.
   */
  async units(
    n: number,
    depth: number,
    role: Role = 'primary',
    options: { readonly pending?: boolean } = {},
  ): Promise<Map<string, UnitResult>> {
    const raw = await this.redis.hgetall(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
    );
    const found = new Map<string, UnitResult>();
    const pending = new Map<string, UnitResult>();
    for (const [field, json] of Object.entries(raw)) {
      const result = parseJson(UnitResultSchema, json, 'unit result');
      if (result.n === n && result.depth === depth && result.unit === field) {
        found.set(field, result);
        if (result.unverified) pending.set(field, result);
      }
    }
    const trusted = await this.#trustedUnits(found);
    if (options.pending) for (const [key, unit] of pending) trusted.set(key, unit);
    return trusted;
  }

  /** `${role}:${D}` of every count of n with a unit record stored (one round trip). */
  async depthsWithUnits(n: number, roles: readonly Role[]): Promise<Set<string>> {
    const read = this.redis.pipeline();
    for (const role of roles) {
      for (let d = 0; d < n; d++) {
        read.hlen(role === 'check' ? this.keys.checkUnits(n, d) : this.keys.units(n, d));
      }
    }
    const replies = (await read.exec()) ?? [];
    const found = new Set<string>();
    roles.forEach((role, r) => {
      for (let d = 0; d < n; d++) {
        const [err, count] = replies[r * n + d] ?? [];
        if (err) throw err;
        if (typeof count === 'number' && count > 0) found.add(`${role}:${d}`);
      }
    });
    return found;
  }

  /**
   * The plan most of the stored units of (n, D) were counted under, unverified imports
   * included: a sweep resumed on another store goes on with the plan its units belong to.
   */
  async storedPlanId(
    n: number,
    depth: number,
    role: Role = 'primary',
  ): Promise<string | undefined> {
    const raw = await this.redis.hvals(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
    );
    const tally = new Map<string, number>();
    // Only a plan id is read here: a record that does not parse is the count's own business.
    for (const unit of raw.map(readUnit)) {
      if (unit?.planId !== undefined) tally.set(unit.planId, (tally.get(unit.planId) ?? 0) + 1);
    }
    let best: string | undefined;
    for (const [planId, count] of tally)
      if (best === undefined || count > (tally.get(best) ?? 0)) best = planId;
    return best;
  }

  /**
   * Makes imported units results once a count of their own has borne them out (a verified
   * sweep's second count agreed with their sum): written again without the flag, sealed
   * under this store's key. A record that changed meanwhile is left as it is.
   */
  async vouchUnits(units: readonly UnitResult[]): Promise<void> {
    for (const unit of units) {
      if (!unit.unverified) continue;
      const key =
        unit.role === 'check'
          ? this.keys.checkUnits(unit.n, unit.depth)
          : this.keys.units(unit.n, unit.depth);
      const vouched: UnitResult = { ...unit };
      delete (vouched as { unverified?: true }).unverified;
      await VOUCH_UNIT.run(
        this.redis,
        { units: key },
        { unit: unit.unit, result: JSON.stringify(this.#sealUnit(vouched)), value: unit.value },
      );
    }
  }

  /**
   * Writes results brought from another store (`wq results --import`, checked beforehand, MACs
   * included): only where nothing is stored yet, all in one transaction, sealed under this
   * store's key.
   */
  async importRecords(batch: {
    readonly units: readonly UnitResult[];
    readonly depths: readonly DepthResult[];
    readonly records: readonly CompletionRecord[];
  }): Promise<void> {
    const multi = this.redis.multi();
    for (const unit of batch.units) {
      const key =
        unit.role === 'check'
          ? this.keys.checkUnits(unit.n, unit.depth)
          : this.keys.units(unit.n, unit.depth);
      multi.hsetnx(key, unit.unit, JSON.stringify(this.#sealUnit(unit)));
    }
    for (const depth of batch.depths) {
      const key =
        depth.role === 'check' ? this.keys.checkDepths(depth.n) : this.keys.depths(depth.n);
      multi.hsetnx(key, String(depth.depth), JSON.stringify(this.#sealDepth(depth)));
    }
    for (const record of batch.records) {
      multi.hsetnx(this.keys.records, String(record.n), JSON.stringify(this.#sealRecord(record)));
      multi.hsetnx(this.keys.sums, String(record.n), record.S);
    }
    await multi.exec();
  }

  /** One stored unit result, or undefined. */
  async unit(
    n: number,
    depth: number,
    unit: string,
    role: Role = 'primary',
  ): Promise<UnitResult | undefined> {
    const json = await this.redis.hget(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
      unit,
    );
    if (json === null) return undefined;
    const result = parseJson(UnitResultSchema, json, 'unit result');
    if (result.n !== n || result.depth !== depth || result.unit !== unit) return undefined;
    return (await this.#trustedUnits(new Map([[unit, result]]))).get(unit);
  }

  async unitCount(n: number, depth: number, role: Role = 'primary'): Promise<number> {
    return this.redis.hlen(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
    );
  }

  async record(n: number): Promise<CompletionRecord | undefined> {
    const json = await this.redis.hget(this.keys.records, String(n));
    if (json === null) return undefined;
    const record = parseJson(CompletionRecordSchema, json, `record of n = ${n}`);
    if (this.trustsRecord(record)) return record;
    await this.#noteForged({ n, depth: 0, role: 'primary', unit: '#S' }, record.S);
    return undefined;
  }
}

/** The `unit` of a disagreement between a stored N(n, D) and S(n)'s record. */
const RECORD_DISAGREEMENT = '#R';

/** Why a record whose MAC does not verify is not a result (another key's, or forged). */
export const FORGED_REASON = 'its MAC does not verify under WQ_RESULT_KEY: not a result';

function disagreementField(n: number, depth: number, role: Role, unit: string): string {
  return `${n}:${depth}:${role}:${unit}`;
}

/**
 * A text field of a stored unit result, its value or its worker ('' when unreadable: then the
 * value disagrees with anything).
 */
function storedField(json: string, field: 'value' | 'worker'): string {
  try {
    const text = (JSON.parse(json) as Record<string, unknown>)[field];
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}
