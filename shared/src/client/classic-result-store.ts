// The classic problem's part of the result store (`<prefix>:results:classic…`): every unit's
// subtotals with its class, and Q(n) with the class count per n. Workers write it, the CLI,
// the dashboard and exports read it; every read is validated. With WQ_RESULT_KEY set, every
// unit and Q(n) is signed as the weak results are (result-seal.ts): a record whose MAC does not
// verify is no result, is noted as a forgery, and its unit or n is counted again.
import type { RedisClient } from './connection.js';
import { KeyedStore } from './keyed-store.js';
import { PUT_CLASSIC_UNIT } from './commands/index.js';
import {
  classicResultMessage,
  classicUnitMessage,
  type ResultSeal,
  withoutMac,
} from './result-seal.js';
import {
  type ClassicResult,
  type ClassicStoreKeys,
  classicStoreKeys,
  type ClassicUnitResult,
  parseClassicResult,
  parseClassicUnitResult,
} from '../contracts/classic-jobs.js';

export type PutClassicOutcome = 'stored' | 'duplicate' | 'conflict';

/** What the store holds of one classic n, for progress: its result, or how far its units are. */
export interface StoredClassicSize {
  readonly result?: ClassicResult;
  /** Units with a first count stored. */
  readonly unitsDone: number;
  /** Units with a second count stored (a verified sweep). */
  readonly checksDone: number;
}

/** Marks a disagreements-hash field that holds a record kept aside as forged. */
const FORGED_SUFFIX = ':forged';

export interface ClassicResultStoreOptions {
  /** WQ_RESULT_KEY's seal: records are signed when written and checked when read. */
  readonly seal?: ResultSeal;
}

export class ClassicResultStore extends KeyedStore<ClassicStoreKeys> {
  readonly seal: ResultSeal | undefined;

  constructor(redis: RedisClient, prefix: string, options: ClassicResultStoreOptions = {}) {
    super(redis, classicStoreKeys(prefix));
    this.seal = options.seal;
  }

  /** A unit record that is a result: not an unverified import, and sealed when keyed. */
  trustsUnit(unit: ClassicUnitResult): boolean {
    if (unit.unverified) return false;
    return !this.seal || this.seal.verifies(classicUnitMessage(unit), unit.mac);
  }

  trustsResult(result: ClassicResult): boolean {
    return !this.seal || this.seal.verifies(classicResultMessage(result), result.mac);
  }

  /** The record as this store writes it: signed when keyed (an unverified import never is). */
  #sealUnit(unit: ClassicUnitResult): ClassicUnitResult {
    const rest = withoutMac(unit);
    return this.seal && !rest.unverified
      ? { ...rest, mac: this.seal.mac(classicUnitMessage(rest)) }
      : rest;
  }

  #sealResult(result: ClassicResult): ClassicResult {
    const rest = withoutMac(result);
    return this.seal ? { ...rest, mac: this.seal.mac(classicResultMessage(rest)) } : rest;
  }

  /**
   * Keeps a record whose MAC failed aside in the disagreements hash (`n:role:unit:forged`, or
   * `n:Q:forged` for a result), as found, so the forgery can be looked at after the recount.
   */
  async #noteForged(what: string, json: string): Promise<void> {
    await this.redis.hset(this.keys.disagreements, `${what}${FORGED_SUFFIX}`, json);
  }

  /** A stored unit record as a result, or undefined (noted when forged) when it is none. */
  async #trustedUnit(json: string): Promise<ClassicUnitResult | undefined> {
    const unit = parseClassicUnitResult(JSON.parse(json));
    if (this.trustsUnit(unit)) return unit;
    if (!unit.unverified) await this.#noteForged(unitField(unit), json);
    return undefined;
  }

  async #trustedResult(json: string): Promise<ClassicResult | undefined> {
    const result = parseClassicResult(JSON.parse(json));
    if (this.trustsResult(result)) return result;
    await this.#noteForged(`${result.n}:Q`, json);
    return undefined;
  }

  async putUnit(counted: ClassicUnitResult): Promise<PutClassicOutcome> {
    const result = this.#sealUnit(counted);
    const units = this.keys.units(result.n, result.role);
    const existing = await this.redis.hget(units, result.unit);
    const untrusted = existing !== null && !(await this.#trustedUnit(existing));
    const outcome = await PUT_CLASSIC_UNIT.run(
      this.redis,
      { units, disagreements: this.keys.disagreements },
      {
        unit: result.unit,
        result: JSON.stringify(result),
        boards: result.boards,
        classes: result.classes,
        disagreementField: `${unitField(result)}:${result.worker}`,
        untrusted: untrusted ? existing : '',
      },
    );
    return outcome === 1 ? 'stored' : outcome === 2 ? 'duplicate' : 'conflict';
  }

  async unit(n: number, key: string, role?: 'check'): Promise<ClassicUnitResult | undefined> {
    const raw = await this.redis.hget(this.keys.units(n, role), key);
    return raw === null ? undefined : this.#trustedUnit(raw);
  }

  /** The stored units among `keys` (one read), by key; with `check`, their second counts. */
  async unitsAmong(
    n: number,
    keys: readonly string[],
    role?: 'check',
  ): Promise<Map<string, ClassicUnitResult>> {
    const out = new Map<string, ClassicUnitResult>();
    if (keys.length === 0) return out;
    const raw = await this.redis.hmget(this.keys.units(n, role), ...keys);
    for (const [i, value] of raw.entries()) {
      const unit = value === null ? undefined : await this.#trustedUnit(value);
      if (unit) out.set(keys[i] as string, unit);
    }
    return out;
  }

  /** Every stored unit of Q(n) by key (first counts, or the second counts with `check`). */
  async units(n: number, role?: 'check'): Promise<Map<string, ClassicUnitResult>> {
    const raw = await this.redis.hgetall(this.keys.units(n, role));
    const out = new Map<string, ClassicUnitResult>();
    for (const [key, value] of Object.entries(raw)) {
      const unit = await this.#trustedUnit(value);
      if (unit) out.set(key, unit);
    }
    return out;
  }

  async putResult(result: ClassicResult): Promise<void> {
    await this.redis.hset(
      this.keys.results,
      String(result.n),
      JSON.stringify(this.#sealResult(result)),
    );
  }

  /** The stored results of `ns` (every stored n when empty), by n. */
  async results(ns: readonly number[] = []): Promise<Map<number, ClassicResult>> {
    const out = new Map<number, ClassicResult>();
    const values =
      ns.length === 0
        ? Object.values(await this.redis.hgetall(this.keys.results))
        : await this.redis.hmget(this.keys.results, ...ns.map(String));
    for (const value of values) {
      const result = value === null ? undefined : await this.#trustedResult(value);
      if (result) out.set(result.n, result);
    }
    return new Map([...out].sort(([a], [b]) => a - b));
  }

  /** Whether every n has a result stored, unchecked (see holdsEvery). */
  resultsStored(ns: readonly number[]): Promise<boolean> {
    return this.holdsEvery(this.keys.results, ns);
  }

  /** Results and stored unit counts of `ns`, in one round trip. */
  async progress(ns: readonly number[]): Promise<Map<number, StoredClassicSize>> {
    const out = new Map<number, StoredClassicSize>();
    if (ns.length === 0) return out;
    const read = this.redis.pipeline().hmget(this.keys.results, ...ns.map(String));
    for (const n of ns) read.hlen(this.keys.units(n)).hlen(this.keys.units(n, 'check'));
    const replies = (await read.exec()) ?? [];
    const results = (replies[0]?.[1] ?? []) as (string | null)[];
    for (const [i, n] of ns.entries()) {
      const raw = results[i];
      const result = typeof raw === 'string' ? await this.#trustedResult(raw) : undefined;
      out.set(n, {
        ...(result?.n === n ? { result } : {}),
        unitsDone: Number(replies[1 + 2 * i]?.[1] ?? 0),
        checksDone: Number(replies[2 + 2 * i]?.[1] ?? 0),
      });
    }
    return out;
  }

  /**
   * Writes records brought from another store (`wq results --problem classic --import`,
   * checked beforehand against this store, MACs included): one transaction, so a crash leaves
   * all or none; signed under this store's key, unverified units excepted.
   */
  async importRecords(
    units: readonly ClassicUnitResult[],
    results: readonly ClassicResult[],
  ): Promise<void> {
    const write = this.redis.multi();
    for (const unit of units) {
      write.hset(
        this.keys.units(unit.n, unit.role),
        unit.unit,
        JSON.stringify(this.#sealUnit(unit)),
      );
    }
    for (const result of results) {
      write.hset(this.keys.results, String(result.n), JSON.stringify(this.#sealResult(result)));
    }
    await write.exec();
  }

  /** Units counted twice with different subtotals, as `n:role:unit:worker` → the second count. */
  async disagreements(): Promise<Map<string, ClassicUnitResult>> {
    const raw = await this.redis.hgetall(this.keys.disagreements);
    return new Map(
      Object.entries(raw)
        .filter(([field]) => !field.endsWith(FORGED_SUFFIX))
        .map(([k, v]) => [k, parseClassicUnitResult(JSON.parse(v))]),
    );
  }

  /** Records found with a MAC that does not verify, as `n:role:unit` or `n:Q` → the record's JSON. */
  async forgeries(): Promise<Map<string, string>> {
    const raw = await this.redis.hgetall(this.keys.disagreements);
    return new Map(
      Object.entries(raw)
        .filter(([field]) => field.endsWith(FORGED_SUFFIX))
        .map(([field, json]) => [field.slice(0, -FORGED_SUFFIX.length), json]),
    );
  }
}

/** A unit's place in the store: `n:role:unit`. */
function unitField(unit: ClassicUnitResult): string {
  return `${unit.n}:${unit.role ?? 'primary'}:${unit.unit}`;
}
