// A fresh worker's warm-up: a small sweep counted by this worker's own processors, under a key
// prefix of its own that is deleted after. V8 compiles a function's fast code only once it has
// run a while, in each process on its own, so a fresh worker ran its first small sweep's jobs
// (BullMQ, ioredis, the result store, the processors) cold, at about twice the main-thread CPU
// a job of a worker that has run sweeps before (what the warm-up buys: docs/costs.md). The
// warm-up is that first sweep, run while the worker has nothing else to do: it gives way to the
// first real job, and nothing of it reaches a real sweep's keys.
import type { Worker } from 'bullmq';
import {
  bullConnection,
  bullmq,
  fulfilsWithin,
  type Logger,
  PipelineClient,
  type RedisClient,
  ResultStore,
  resultSealOf,
} from '@weak-queens/shared/client';
import { JOB_NAMES, QUEUE_NAMES, type WqConfig } from '@weak-queens/shared/contracts';
import { collectFully, type KernelPool } from '@weak-queens/shared/kernel';
import { createAggregateProcessor } from './aggregate-processor.js';
import { createCountProcessor } from './count-processor.js';

/**
 * The sweep: 65 jobs through every path a small sweep takes (the DFS and the window transfer, on
 * the kernel threads and on the worker's own, the sums), so that each runs warm in the first
 * real sweep (what that buys: docs/costs.md).
 */
export const WARM_UP_NS: readonly number[] = Array.from({ length: 10 }, (_, i) => i + 1);

/** Past this the warm-up is given up (a Redis outage, a machine far slower than planned). */
const WARM_UP_LIMIT_MS = 15_000;

/** How long closing waits for the warm-up's jobs and the deletion of its keys. */
const CLEANUP_LIMIT_MS = 1_000;

export interface WarmUpDeps {
  readonly config: WqConfig;
  /** The worker's result-store connection: the warm-up's keys are deleted through it. */
  readonly redis: RedisClient;
  readonly pool: KernelPool;
  /** Settles when the pool's own warm-up is over (it stops at the first unit asked for). */
  readonly poolWarm: Promise<unknown>;
  readonly workerId: string;
  /** The ids of the workers with a recent heartbeat: a warm-up's keys outlive no other. */
  readonly liveWorkers: () => Promise<readonly { readonly id: string }[]>;
  readonly concurrency: number;
  readonly progressIntervalMs: number;
  readonly logger: Logger;
}

export class WarmUp {
  /** Every warm-up's keys: `<prefix>:warm-up:<worker id>:…`, within the prefix an ACL grants. */
  private readonly base: string;
  /** This one's. */
  readonly prefix: string;
  private abandoned = false;
  private stop!: () => void;
  private readonly stopped = new Promise<void>((resolve) => (this.stop = resolve));
  private readonly done: Promise<void>;

  constructor(private readonly deps: WarmUpDeps) {
    this.base = `${deps.config.prefix}:warm-up:`;
    this.prefix = `${this.base}${deps.workerId}`;
    this.done = this.run();
  }

  /**
   * Ends the warm-up now (a real job started, or the worker is closing). Resolves once its
   * jobs are closed and its keys deleted, or after CLEANUP_LIMIT_MS without Redis.
   */
  async abandon(): Promise<void> {
    this.abandoned = true;
    this.stop();
    await fulfilsWithin(this.done, CLEANUP_LIMIT_MS);
  }

  private async run(): Promise<void> {
    const started = performance.now();
    // The pool's warm-up first: a real job may come meanwhile, and then there is no sweep.
    await Promise.race([this.deps.poolWarm.catch(() => undefined), this.stopped]);
    if (this.abandoned) {
      this.report(started, 'gave way to a real job before its sweep');
      return;
    }
    const { workers, sums } = this.startWorkers();
    const client = new PipelineClient({ ...this.deps.config, prefix: this.prefix });
    let outcome: string;
    try {
      const over = Promise.race([client.submit(WARM_UP_NS).then(() => sums), this.stopped]);
      const inTime = await fulfilsWithin(over, WARM_UP_LIMIT_MS);
      if (!inTime) outcome = `given up after ${WARM_UP_LIMIT_MS} ms`;
      else outcome = this.abandoned ? 'gave way to a real job' : 'done';
    } catch (err) {
      outcome = `failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      await Promise.allSettled([client.close(), ...workers.map((w) => w.close())]);
    }
    try {
      await this.deleteKeys();
    } catch (err) {
      outcome += `; its keys not deleted: ${err instanceof Error ? err.message : String(err)}`;
    }
    // What the sweep left is garbage, and a young generation half full of it would be copied
    // in the middle of the first real sweep (a pause of this thread as long as a few of its
    // jobs): collected now, while there is nothing else to do. Not once a real job runs.
    if (!this.abandoned) collectFully();
    this.report(started, outcome);
  }

  private report(started: number, outcome: string): void {
    const ms = Math.round(performance.now() - started);
    this.deps.logger.info({ ns: `1..${WARM_UP_NS.length}`, ms, outcome }, 'warm-up sweep over');
  }

  /** This worker's processors on the warm-up's own queues; `sums` settles when every n did. */
  private startWorkers(): { workers: Worker[]; sums: Promise<void> } {
    const { config, redis, pool, workerId, concurrency, logger } = this.deps;
    const store = new ResultStore(redis, this.prefix, { seal: resultSealOf(config) });
    // Silent: the warm-up's jobs are no one's business, and the logging code warms up anyway.
    const quiet = logger.child({ module: 'warm-up' }, { level: 'silent' });
    const count = createCountProcessor({
      store,
      pool,
      workerId,
      logger: quiet,
      progressIntervalMs: this.deps.progressIntervalMs,
      memory: config,
    });
    const aggregate = createAggregateProcessor({ store, logger: quiet, prefix: this.prefix });
    const connection = bullConnection(config, 'worker', redis);
    const common = { connection, prefix: this.prefix, autorun: false, concurrency };
    const workers = [
      new bullmq.Worker(QUEUE_NAMES.count, count, common),
      new bullmq.Worker(QUEUE_NAMES.aggregate, aggregate, common),
    ];
    let left = WARM_UP_NS.length;
    let allSummed!: () => void;
    const sums = new Promise<void>((resolve) => (allSummed = resolve));
    const summed = (name: string | undefined): void => {
      if (name === JOB_NAMES.sum && --left === 0) allSummed();
    };
    const [, aggregateWorker] = workers;
    aggregateWorker?.on('completed', (job) => summed(job.name));
    aggregateWorker?.on('failed', (job) => summed(job?.name));
    for (const worker of workers) {
      // Errors end in the time limit or the outcome line; an 'error' without a listener would
      // take the process down.
      worker.on('error', () => undefined);
      worker.run().catch(() => undefined);
    }
    return { workers, sums };
  }

  /**
   * Every key of this warm-up (its queues, plans, results and sweep record), and those of any
   * other whose worker is gone (killed during its own): one pass over the keyspace.
   */
  private async deleteKeys(): Promise<void> {
    const { redis, workerId } = this.deps;
    const live = new Set((await this.deps.liveWorkers()).map((w) => w.id));
    live.delete(workerId);
    const match = `${globEscape(this.base)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 10_000);
      cursor = next;
      // A worker id holds no ':' (worker-service-options.ts), so it ends at the first one.
      const dead = keys.filter((key) => !live.has(key.slice(this.base.length).split(':')[0] ?? ''));
      if (dead.length > 0) await redis.unlink(...dead);
    } while (cursor !== '0');
  }
}

/** A Redis glob that matches `text` literally. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
