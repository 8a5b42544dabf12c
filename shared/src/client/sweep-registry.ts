// Sweeps (what a user submitted) and live workers (heartbeats), for status, cancel and retry.
// Liveness is judged on the Redis server's clock (TIME), the one clock every process shares.
import type { RedisClient } from './connection.js';
import { KeyedStore } from './keyed-store.js';
import { HEARTBEAT, LIVE_WORKERS } from './commands/index.js';
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
import { PROTOCOL_VERSION, protocolOf } from '../contracts/protocol.js';

export type { SweepRecord, WorkerInfo } from '../contracts/sweep-record.js';
export { CLOCK_SKEW_WARN_MS } from '../contracts/sweep-record.js';

/** A SweepRecord read back from Redis, every field checked. */
export function parseSweepRecord(value: unknown): SweepRecord {
  return parseInput(SweepRecordSchema, value, { name: 'sweep record' });
}

/** A worker is live when its last heartbeat is younger than this. */
export const WORKER_TTL_MS = 15_000;

export class SweepRegistry extends KeyedStore<StoreKeys> {
  /** The protocol whose workers are this reader's: those that take the jobs it plans. */
  readonly protocol: number;

  constructor(redis: RedisClient, prefix: string, options: { readonly protocol?: number } = {}) {
    super(redis, storeKeys(prefix));
    this.protocol = options.protocol ?? PROTOCOL_VERSION;
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

  /**
   * Lists the worker as live, scored by the Redis server's clock (not the worker's: a worker
   * whose clock runs hours ahead would otherwise stay listed long after it died, and one behind
   * would never be listed). Returns the server's time of the heartbeat (ms).
   */
  async heartbeat(info: WorkerInfo): Promise<number> {
    const at = await HEARTBEAT.run(
      this.redis,
      {
        workers: this.keys.workers,
        workerInfo: this.keys.workerInfo,
        workerClocks: this.keys.workerClocks,
      },
      {
        id: info.id,
        info: JSON.stringify(info),
        skew: String(Math.round(info.clockSkewMs ?? 0)),
      },
    );
    return Number(at);
  }

  /**
   * The Redis server's time (ms) and this host's clock minus it, the round trip's midpoint
   * taken as the moment the server read its clock (off by at most half a round trip).
   */
  async clock(): Promise<{ readonly redisMs: number; readonly skewMs: number }> {
    const sent = Date.now();
    const [seconds, micros] = await this.redis.time();
    const received = Date.now();
    const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    return { redisMs, skewMs: Math.round((sent + received) / 2 - redisMs) };
  }

  /**
   * Each worker's clock minus the server's at its last heartbeat (ms), by worker id, gone
   * workers included: what puts the times a worker recorded on the server's clock.
   */
  async clockSkews(): Promise<Map<string, number>> {
    const all = await this.redis.hgetall(this.keys.workerClocks);
    const skews = new Map<string, number>();
    for (const [id, text] of Object.entries(all)) {
      const skew = Number(text);
      if (Number.isFinite(skew)) skews.set(id, skew);
    }
    return skews;
  }

  /**
   * Says that a submitter is adding this sweep's flows, for `ttlMs`: renewed while it works, it
   * lapses soon after the submitter dies, and the sweep then reads as interrupted.
   */
  async markSubmitting(id: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.sweepSubmitting(id), '1', 'PX', ttlMs);
  }

  async doneSubmitting(id: string): Promise<void> {
    await this.redis.del(this.keys.sweepSubmitting(id));
  }

  /**
   * The n of a sweep whose submission never queued them: those the record does not list as
   * queued that have neither a stored result nor jobs (`cancelled` to the progress reader).
   * `interrupted` is false while a submitter is still at work on it. Undefined for a sweep
   * whose submission completed (or was recorded before submissions were recorded step by step).
   */
  async notQueued(
    sweep: SweepRecord,
    sizes: readonly { readonly n: number; readonly state: string }[],
  ): Promise<NotQueued | undefined> {
    if (sweep.submittedAt !== undefined || sweep.queued === undefined) return undefined;
    if (sweep.cancelledAt !== undefined) return undefined;
    const queued = new Set(sweep.queued);
    const ns = sizes.filter((s) => s.state === 'cancelled' && !queued.has(s.n)).map((s) => s.n);
    if (ns.length === 0) return undefined;
    const submitting = (await this.redis.exists(this.keys.sweepSubmitting(sweep.id))) === 1;
    return { ns, interrupted: !submitting };
  }

  async removeWorker(id: string): Promise<void> {
    await this.redis.multi().zrem(this.keys.workers, id).hdel(this.keys.workerInfo, id).exec();
  }

  /**
   * Live workers of this reader's protocol: those that take the jobs it plans. Routing, the
   * cluster a sweep is planned for and every wait for workers count these only.
   */
  async liveWorkers(): Promise<WorkerInfo[]> {
    return (await this.allLive()).filter((w) => protocolOf(w) === this.protocol);
  }

  /**
   * Live workers of another protocol (another build): they take none of the jobs this reader
   * plans, and `wq status` and the dashboard show them as such.
   */
  async otherProtocolWorkers(): Promise<WorkerInfo[]> {
    return (await this.allLive()).filter((w) => protocolOf(w) !== this.protocol);
  }

  /**
   * Workers with a heartbeat younger than WORKER_TTL_MS on the Redis server's clock, of every
   * protocol; stale entries are pruned on the way (one script: the server's clock, the cut and
   * the read agree).
   */
  private async allLive(): Promise<WorkerInfo[]> {
    const values = (await LIVE_WORKERS.run(
      this.redis,
      { workers: this.keys.workers, workerInfo: this.keys.workerInfo },
      { ttl: String(WORKER_TTL_MS) },
    )) as (string | null)[];
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

/** What `notQueued` found: the n never queued, and whether their submitter is gone. */
export interface NotQueued {
  readonly ns: readonly number[];
  readonly interrupted: boolean;
}

/** `n = 10..13` or `n = 3, 5..7`: a set of sizes as runs, for one line of status. */
export function describeSizes(ns: readonly number[]): string {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    runs.push(j > i ? `${sorted[i]}..${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return `n = ${runs.join(', ')}`;
}

/** The one line `wq status` and the dashboard give a sweep whose submission did not finish. */
export function notQueuedLine(sweepId: string, notQueued: NotQueued): string {
  const sizes = describeSizes(notQueued.ns);
  return notQueued.interrupted
    ? `interrupted while queuing: ${sizes} not queued; wq retry ${sweepId} finishes it`
    : `queuing: ${sizes} not queued yet`;
}
