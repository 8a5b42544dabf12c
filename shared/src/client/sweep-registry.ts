// Sweeps (what a user submitted) and live workers (heartbeats), for status, cancel and retry.
import type { RedisClient } from './connection.js';
import { KeyedStore } from './keyed-store.js';
import { InvalidInputError } from '../kernel/errors.js';
import { SWEEP_ID } from '../contracts/job-payloads.js';
import { parseInput, parseJson } from '../contracts/schema.js';
import {
  type SweepRecord,
  SweepRecordSchema,
  type WorkerInfo,
  WorkerInfoSchema,
} from '../contracts/sweep-record.js';
import { type StoreKeys, storeKeys } from '../contracts/store-keys.js';

export type { SweepRecord, WorkerInfo } from '../contracts/sweep-record.js';

/** A SweepRecord read back from Redis, every field checked. */
export function parseSweepRecord(value: unknown): SweepRecord {
  return parseInput(SweepRecordSchema, value, { name: 'sweep record' });
}

/** A WorkerInfo (a heartbeat) read back from Redis, every field checked. */
export function parseWorkerInfo(value: unknown): WorkerInfo {
  return parseInput(WorkerInfoSchema, value, { name: 'worker heartbeat' });
}

/** A worker is live when its last heartbeat is younger than this. */
export const WORKER_TTL_MS = 15_000;

export class SweepRegistry extends KeyedStore<StoreKeys> {
  constructor(redis: RedisClient, prefix: string) {
    super(redis, storeKeys(prefix));
  }

  async save(sweep: SweepRecord): Promise<void> {
    await this.redis
      .multi()
      .set(this.keys.sweep(sweep.id), JSON.stringify(sweep))
      .zadd(this.keys.sweeps, Date.parse(sweep.createdAt), sweep.id)
      .exec();
  }

  /** The sweep, or undefined when no sweep has this id. */
  async find(id: string): Promise<SweepRecord | undefined> {
    const json = SWEEP_ID.test(id) ? await this.redis.get(this.keys.sweep(id)) : null;
    return json === null ? undefined : parseJson(SweepRecordSchema, json, 'sweep record');
  }

  /** The sweep, or an InvalidInputError naming the sweeps that exist. */
  async get(id: string): Promise<SweepRecord> {
    const sweep = await this.find(id);
    if (sweep === undefined) {
      const known = await this.redis.zrange(this.keys.sweeps, -5, -1);
      throw new InvalidInputError(
        'sweep',
        id,
        known.length ? `a sweep id such as ${known.join(', ')}` : 'a sweep id (none exist yet)',
      );
    }
    return sweep;
  }

  async list(): Promise<SweepRecord[]> {
    const ids = await this.redis.zrange(this.keys.sweeps, 0, -1);
    if (ids.length === 0) return [];
    const values = await this.redis.mget(...ids.map((id) => this.keys.sweep(id)));
    return values
      .filter((v): v is string => v !== null)
      .map((v) => parseJson(SweepRecordSchema, v, 'sweep record'));
  }

  async heartbeat(info: WorkerInfo): Promise<void> {
    await this.redis
      .multi()
      .zadd(this.keys.workers, Date.now(), info.id)
      .hset(this.keys.workerInfo, info.id, JSON.stringify(info))
      .exec();
  }

  async removeWorker(id: string): Promise<void> {
    await this.redis.multi().zrem(this.keys.workers, id).hdel(this.keys.workerInfo, id).exec();
  }

  /** Workers with a recent heartbeat; stale entries are pruned on the way. */
  async liveWorkers(): Promise<WorkerInfo[]> {
    const cutoff = Date.now() - WORKER_TTL_MS;
    const stale = await this.redis.zrangebyscore(this.keys.workers, '-inf', `(${cutoff}`);
    if (stale.length) {
      await this.redis
        .multi()
        .zrem(this.keys.workers, ...stale)
        .hdel(this.keys.workerInfo, ...stale)
        .exec();
    }
    const ids = await this.redis.zrange(this.keys.workers, 0, -1);
    if (ids.length === 0) return [];
    const values = await this.redis.hmget(this.keys.workerInfo, ...ids);
    // An unreadable heartbeat (a forged or foreign one) is left out, not let stop status or a
    // submission: it names no worker this pipeline can use.
    return values.flatMap((v) => {
      try {
        return v === null ? [] : [parseJson(WorkerInfoSchema, v, 'worker heartbeat')];
      } catch {
        return [];
      }
    });
  }
}
