// The result store: what the pipeline has computed, by n, by (n, D) and by unit. Workers write
// it, the producer reads it to skip finished work, the CLI shows it. Every read is validated.
import type { Redis } from 'ioredis';
import {
  type CompletionRecord,
  type DepthResult,
  isDecimal,
  type Mismatch,
  parseDepthResult,
  parseUnitResult,
  type UnitResult,
} from './job-results.js';
import { type StoreKeys, storeKeys } from './store-keys.js';
import {
  type Calibration,
  CALIBRATION_MIN_MODEL_SECONDS,
  calibrationFromFields,
} from './calibration.js';

/** Which count of an (n, D): the first, or the second of a verified sweep. */
export type Role = 'primary' | 'check';

/** KEYS: units hash, calibration hash. ARGV: unit key, result JSON, algorithm or '', model s, actual s. */
const PUT_UNIT = `
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 and ARGV[3] ~= '' then
  redis.call('HINCRBY', KEYS[2], ARGV[3] .. ':units', 1)
  redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':model', ARGV[4])
  redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':actual', ARGV[5])
end
return 1`;

export class ResultStore {
  readonly keys: StoreKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = storeKeys(prefix);
  }

  /**
   * Stores a unit's result. The first time a unit is stored, its measured and estimated seconds
   * also go into the calibration sums (one script, so a unit delivered twice counts once).
   */
  async putUnit(result: UnitResult): Promise<void> {
    const units =
      result.role === 'check'
        ? this.keys.checkUnits(result.n, result.depth)
        : this.keys.units(result.n, result.depth);
    const calibrates =
      result.modelSeconds !== undefined && result.modelSeconds >= CALIBRATION_MIN_MODEL_SECONDS;
    await this.redis.eval(
      PUT_UNIT,
      2,
      units,
      this.keys.calibration,
      result.unit,
      JSON.stringify(result),
      calibrates ? result.algorithm : '',
      String(result.modelSeconds ?? 0),
      String(result.seconds),
    );
  }

  /** Per algorithm, measured against estimated seconds of the stored units. */
  async calibration(): Promise<Calibration> {
    return calibrationFromFields(await this.redis.hgetall(this.keys.calibration));
  }

  /** N(n, D) (or, with role `check`, its second count). */
  async putDepth(result: DepthResult): Promise<void> {
    const key =
      result.role === 'check' ? this.keys.checkDepths(result.n) : this.keys.depths(result.n);
    await this.redis.hset(key, String(result.depth), JSON.stringify(result));
  }

  /**
   * Records why S(n) was not published and forgets the counts in question (both of them), so a
   * retry counts them again instead of finding them stored.
   */
  async putMismatch(mismatch: Mismatch): Promise<void> {
    const { n } = mismatch;
    const forget = this.redis
      .multi()
      .hset(this.keys.mismatches, String(n), JSON.stringify(mismatch));
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
    return json === null ? undefined : (JSON.parse(json) as Mismatch);
  }

  /** S(n) and its record in one transaction, so a reader never sees one without the other. */
  async putSum(record: CompletionRecord): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.records, String(record.n), JSON.stringify(record))
      .hset(this.keys.sums, String(record.n), record.S)
      .hset(this.keys.sweepDone(record.sweepId), String(record.n), record.completedAt)
      // A disagreement from an earlier attempt is settled once S(n) is published.
      .hdel(this.keys.mismatches, String(record.n))
      .exec();
  }

  /** S(n) for the sizes that have one; sizes without a value are absent, never 0. */
  async sums(ns: readonly number[]): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    if (ns.length === 0) return found;
    const values = await this.redis.hmget(this.keys.sums, ...ns.map(String));
    ns.forEach((n, i) => {
      const value = values[i];
      if (isDecimal(value)) found.set(n, value);
    });
    return found;
  }

  async depths(n: number, role: Role = 'primary'): Promise<Map<number, DepthResult>> {
    const raw = await this.redis.hgetall(
      role === 'check' ? this.keys.checkDepths(n) : this.keys.depths(n),
    );
    const found = new Map<number, DepthResult>();
    for (const [field, json] of Object.entries(raw)) {
      const result = parseDepthResult(JSON.parse(json));
      if (result.n === n && String(result.depth) === field) found.set(result.depth, result);
    }
    return found;
  }

  async units(n: number, depth: number, role: Role = 'primary'): Promise<Map<string, UnitResult>> {
    const raw = await this.redis.hgetall(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
    );
    const found = new Map<string, UnitResult>();
    for (const [field, json] of Object.entries(raw)) {
      const result = parseUnitResult(JSON.parse(json));
      if (result.n === n && result.depth === depth && result.unit === field) {
        found.set(field, result);
      }
    }
    return found;
  }

  async unitCount(n: number, depth: number, role: Role = 'primary'): Promise<number> {
    return this.redis.hlen(
      role === 'check' ? this.keys.checkUnits(n, depth) : this.keys.units(n, depth),
    );
  }

  async record(n: number): Promise<CompletionRecord | undefined> {
    const json = await this.redis.hget(this.keys.records, String(n));
    return json === null ? undefined : (JSON.parse(json) as CompletionRecord);
  }
}
