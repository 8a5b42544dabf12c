// Sweeps (what a user submitted) and live workers (heartbeats), for status, cancel and retry.
import type { RedisClient } from './connection.js';
import { InvalidInputError } from '../kernel/errors.js';
import { SWEEP_ID } from '../contracts/job-payloads.js';
import { type StoreKeys, storeKeys } from '../contracts/store-keys.js';

export interface SweepRecord {
  readonly id: string;
  readonly ns: readonly number[];
  readonly createdAt: string;
  readonly targetSeconds: number;
  /** Units planned per n (work already in the result store included). */
  readonly units: Readonly<Record<string, number>>;
  /** Expected single-core seconds per n (the calibrated plan, stored work included). */
  readonly estimates?: Readonly<Record<string, number>>;
  readonly cancelledAt?: string;
  /** Every (n, D) counted twice by different algorithms (`wq sweep --verify`). */
  readonly verify?: boolean;
}

export interface WorkerInfo {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly concurrency: number;
  /** Memory this worker may use in all (WQ_WORKER_MEMORY, or derived from its machine). */
  readonly memoryBytes?: number;
  /**
   * The largest unit it takes per slot (bytes): its memory shared among its slots, at most
   * its WQ_MAX_UNIT_BYTES. It consumes the count queues of the memory classes this holds.
   */
  readonly slotBytes?: number;
  /** The weak-queens version it runs. */
  readonly version?: string;
  readonly startedAt: string;
  /** Job ids being processed at the last heartbeat. */
  readonly active: readonly string[];
  /** Count units finished (completed or failed) since the worker started. */
  readonly jobsDone?: number;
  /** Milliseconds spent on count units since start, summed over its slots (running ones too). */
  readonly busyMs?: number;
  /** When this heartbeat was sent; with startedAt and concurrency it gives the busy share. */
  readonly heartbeatAt?: string;
}

/** The fields of a record read back from Redis, and a check that names the field it rejects. */
function fieldsOf(
  value: unknown,
  what: string,
): {
  f: Record<string, unknown>;
  need: (ok: boolean, name: string, allowed: string) => void;
} {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInputError(what, value, 'an object');
  }
  const f = value as Record<string, unknown>;
  const need = (ok: boolean, name: string, allowed: string): void => {
    if (!ok) throw new InvalidInputError(`${what}.${name}`, f[name], allowed);
  };
  return { f, need };
}

/** A SweepRecord read back from Redis, every field checked. */
export function parseSweepRecord(value: unknown): SweepRecord {
  const { f, need } = fieldsOf(value, 'sweep record');
  const numbers = (v: unknown): v is Record<string, number> =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'number' && x >= 0);
  need(typeof f.id === 'string' && SWEEP_ID.test(f.id), 'id', 'a sweep id');
  need(
    Array.isArray(f.ns) && f.ns.every((n) => Number.isInteger(n) && (n as number) >= 1),
    'ns',
    'a list of n ≥ 1',
  );
  need(
    typeof f.createdAt === 'string' && !Number.isNaN(Date.parse(f.createdAt)),
    'createdAt',
    'an ISO time',
  );
  need(typeof f.targetSeconds === 'number' && f.targetSeconds > 0, 'targetSeconds', 'seconds > 0');
  need(numbers(f.units), 'units', 'units per n');
  need(f.estimates === undefined || numbers(f.estimates), 'estimates', 'seconds per n or absent');
  need(
    f.cancelledAt === undefined || typeof f.cancelledAt === 'string',
    'cancelledAt',
    'an ISO time or absent',
  );
  need(f.verify === undefined || typeof f.verify === 'boolean', 'verify', 'true, false or absent');
  return {
    id: f.id as string,
    ns: [...(f.ns as number[])],
    createdAt: f.createdAt as string,
    targetSeconds: f.targetSeconds as number,
    units: { ...(f.units as Record<string, number>) },
    ...(f.estimates === undefined
      ? {}
      : { estimates: { ...(f.estimates as Record<string, number>) } }),
    ...(f.cancelledAt === undefined ? {} : { cancelledAt: f.cancelledAt as string }),
    ...(f.verify === undefined ? {} : { verify: f.verify as boolean }),
  };
}

/** A WorkerInfo (a heartbeat) read back from Redis, every field checked. */
export function parseWorkerInfo(value: unknown): WorkerInfo {
  const { f, need } = fieldsOf(value, 'worker heartbeat');
  const count = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
  const optional = (name: string, ok: (v: unknown) => boolean, allowed: string): void =>
    need(f[name] === undefined || ok(f[name]), name, `${allowed} or absent`);
  for (const name of ['id', 'host', 'startedAt'])
    need(typeof f[name] === 'string', name, 'a string');
  need(count(f.pid), 'pid', 'a process id');
  need(
    Number.isInteger(f.concurrency) && (f.concurrency as number) >= 1,
    'concurrency',
    'slots ≥ 1',
  );
  need(
    Array.isArray(f.active) && f.active.every((id) => typeof id === 'string'),
    'active',
    'a list of job ids',
  );
  optional('memoryBytes', count, 'bytes');
  optional('slotBytes', count, 'bytes');
  optional('version', (v) => typeof v === 'string', 'a version');
  optional('jobsDone', count, 'a count');
  optional('busyMs', (v) => typeof v === 'number' && v >= 0, 'milliseconds');
  optional('heartbeatAt', (v) => typeof v === 'string', 'an ISO time');
  return {
    id: f.id as string,
    host: f.host as string,
    pid: f.pid as number,
    concurrency: f.concurrency as number,
    startedAt: f.startedAt as string,
    active: [...(f.active as string[])],
    ...(f.memoryBytes === undefined ? {} : { memoryBytes: f.memoryBytes as number }),
    ...(f.slotBytes === undefined ? {} : { slotBytes: f.slotBytes as number }),
    ...(f.version === undefined ? {} : { version: f.version as string }),
    ...(f.jobsDone === undefined ? {} : { jobsDone: f.jobsDone as number }),
    ...(f.busyMs === undefined ? {} : { busyMs: f.busyMs as number }),
    ...(f.heartbeatAt === undefined ? {} : { heartbeatAt: f.heartbeatAt as string }),
  };
}

/** A worker is live when its last heartbeat is younger than this. */
export const WORKER_TTL_MS = 15_000;

export class SweepRegistry {
  readonly keys: StoreKeys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = storeKeys(prefix);
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
    return json === null ? undefined : parseSweepRecord(JSON.parse(json));
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
      .map((v) => parseSweepRecord(JSON.parse(v)));
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
        return v === null ? [] : [parseWorkerInfo(JSON.parse(v))];
      } catch {
        return [];
      }
    });
  }
}
