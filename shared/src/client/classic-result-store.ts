// The classic problem's part of the result store (`<prefix>:results:classic…`): every unit's
// subtotals with its class, and Q(n) with the class count per n. Workers write it, the CLI,
// the dashboard and exports read it; every read is validated.
import type { RedisClient } from './connection.js';
import { KeyedStore } from './keyed-store.js';
import {
  type ClassicResult,
  type ClassicStoreKeys,
  classicStoreKeys,
  type ClassicUnitResult,
  parseClassicResult,
  parseClassicUnitResult,
} from '../contracts/classic-jobs.js';

/**
 * KEYS: units hash, disagreements hash. ARGV: unit key, result JSON, boards, classes,
 * disagreement field. Stores the unit unless it is there: 1 stored, 2 the same subtotals were
 * there already (a re-run after a kill), 0 other subtotals were (kept aside as a disagreement).
 */
const PUT_UNIT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
local stored = cjson.decode(old)
if stored.boards == ARGV[3] and stored.classes == ARGV[4] then return 2 end
redis.call('HSET', KEYS[2], ARGV[5], ARGV[2])
return 0
`;

export type PutClassicOutcome = 'stored' | 'duplicate' | 'conflict';

/** What the store holds of one classic n, for progress: its result, or how far its units are. */
export interface StoredClassicSize {
  readonly result?: ClassicResult;
  /** Units with a first count stored. */
  readonly unitsDone: number;
  /** Units with a second count stored (a verified sweep). */
  readonly checksDone: number;
}

export class ClassicResultStore extends KeyedStore<ClassicStoreKeys> {
  constructor(redis: RedisClient, prefix: string) {
    super(redis, classicStoreKeys(prefix));
  }

  async putUnit(result: ClassicUnitResult): Promise<PutClassicOutcome> {
    const outcome = await this.redis.eval(
      PUT_UNIT,
      2,
      this.keys.units(result.n, result.role),
      this.keys.disagreements,
      result.unit,
      JSON.stringify(result),
      result.boards,
      result.classes,
      `${result.n}:${result.role ?? 'primary'}:${result.unit}:${result.worker}`,
    );
    return outcome === 1 ? 'stored' : outcome === 2 ? 'duplicate' : 'conflict';
  }

  async unit(n: number, key: string, role?: 'check'): Promise<ClassicUnitResult | undefined> {
    const raw = await this.redis.hget(this.keys.units(n, role), key);
    return raw === null ? undefined : parseClassicUnitResult(JSON.parse(raw));
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
    raw.forEach((value, i) => {
      if (value !== null) out.set(keys[i] as string, parseClassicUnitResult(JSON.parse(value)));
    });
    return out;
  }

  /** Every stored unit of Q(n) by key (first counts, or the second counts with `check`). */
  async units(n: number, role?: 'check'): Promise<Map<string, ClassicUnitResult>> {
    const raw = await this.redis.hgetall(this.keys.units(n, role));
    const out = new Map<string, ClassicUnitResult>();
    for (const [key, value] of Object.entries(raw)) {
      out.set(key, parseClassicUnitResult(JSON.parse(value)));
    }
    return out;
  }

  async putResult(result: ClassicResult): Promise<void> {
    await this.redis.hset(this.keys.results, String(result.n), JSON.stringify(result));
  }

  /** The stored results of `ns` (every stored n when empty), by n. */
  async results(ns: readonly number[] = []): Promise<Map<number, ClassicResult>> {
    const out = new Map<number, ClassicResult>();
    if (ns.length === 0) {
      const all = await this.redis.hgetall(this.keys.results);
      for (const value of Object.values(all)) {
        const result = parseClassicResult(JSON.parse(value));
        out.set(result.n, result);
      }
    } else {
      const values = await this.redis.hmget(this.keys.results, ...ns.map(String));
      values.forEach((value) => {
        if (value === null) return;
        const result = parseClassicResult(JSON.parse(value));
        out.set(result.n, result);
      });
    }
    return new Map([...out].sort(([a], [b]) => a - b));
  }

  /** Results and stored unit counts of `ns`, in one round trip. */
  async progress(ns: readonly number[]): Promise<Map<number, StoredClassicSize>> {
    const out = new Map<number, StoredClassicSize>();
    if (ns.length === 0) return out;
    const read = this.redis.pipeline().hmget(this.keys.results, ...ns.map(String));
    for (const n of ns) read.hlen(this.keys.units(n)).hlen(this.keys.units(n, 'check'));
    const replies = (await read.exec()) ?? [];
    const results = (replies[0]?.[1] ?? []) as (string | null)[];
    ns.forEach((n, i) => {
      const raw = results[i];
      const result = typeof raw === 'string' ? parseClassicResult(JSON.parse(raw)) : undefined;
      out.set(n, {
        ...(result?.n === n ? { result } : {}),
        unitsDone: Number(replies[1 + 2 * i]?.[1] ?? 0),
        checksDone: Number(replies[2 + 2 * i]?.[1] ?? 0),
      });
    });
    return out;
  }

  /**
   * Writes records brought from another store (`wq results --problem classic --import`,
   * checked beforehand against this store): one transaction, so a crash leaves all or none.
   */
  async importRecords(
    units: readonly ClassicUnitResult[],
    results: readonly ClassicResult[],
  ): Promise<void> {
    const write = this.redis.multi();
    for (const unit of units)
      write.hset(this.keys.units(unit.n, unit.role), unit.unit, JSON.stringify(unit));
    for (const result of results)
      write.hset(this.keys.results, String(result.n), JSON.stringify(result));
    await write.exec();
  }

  /** Units counted twice with different subtotals, as `n:role:unit:worker` → the second count. */
  async disagreements(): Promise<Map<string, ClassicUnitResult>> {
    const raw = await this.redis.hgetall(this.keys.disagreements);
    return new Map(Object.entries(raw).map(([k, v]) => [k, parseClassicUnitResult(JSON.parse(v))]));
  }
}
