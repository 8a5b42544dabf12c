// One worker process: a BullMQ worker per queue, the kernel thread pool, heartbeats, and a
// graceful close that lets active units finish within a bound and hands the rest back.
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  createRedis,
  QUEUE_NAMES,
  redisOptions,
  ResultStore,
  SweepRegistry,
} from '@weak-queens/shared';
import { createAggregateProcessor } from './aggregate-processor.js';
import { createCountProcessor } from './count-processor.js';
import { KernelPool } from './kernel-pool.js';
import {
  type CompiledWorkerServiceOptions,
  compileWorkerServiceOptions,
  type WorkerServiceOptions,
} from './worker-service-options.js';

/** Aggregations are cheap (a few Redis reads and a sum); a few at once keep sweeps flowing. */
const AGGREGATE_CONCURRENCY = 4;

export class WorkerService {
  readonly id: string;
  private readonly options: CompiledWorkerServiceOptions;
  private readonly redis: Redis;
  private readonly pool: KernelPool;
  private readonly registry: SweepRegistry;
  private readonly countWorker: Worker;
  private readonly aggregateWorker: Worker;
  private readonly startedAt = new Date().toISOString();
  private heartbeatTimer?: NodeJS.Timeout;
  private closing?: Promise<void>;

  constructor(options: WorkerServiceOptions) {
    this.options = compileWorkerServiceOptions(options);
    const { config, logger, concurrency, id } = this.options;
    this.id = id;
    this.redis = createRedis(config, 'worker');
    this.pool = new KernelPool(concurrency);
    const store = new ResultStore(this.redis, config.prefix);
    this.registry = new SweepRegistry(this.redis, config.prefix);
    const connection = redisOptions(config, 'worker');
    const common = { connection, prefix: config.prefix, name: id, autorun: false };
    this.countWorker = new Worker(
      QUEUE_NAMES.count,
      createCountProcessor({
        store,
        pool: this.pool,
        workerId: id,
        logger: logger.child({ module: 'count' }),
        progressIntervalMs: this.options.progressIntervalMs,
      }),
      { ...common, concurrency },
    );
    this.aggregateWorker = new Worker(
      QUEUE_NAMES.aggregate,
      createAggregateProcessor({ store, logger: logger.child({ module: 'aggregate' }) }),
      { ...common, concurrency: AGGREGATE_CONCURRENCY },
    );
    for (const worker of [this.countWorker, this.aggregateWorker]) {
      worker.on('error', (err) => logger.error({ err }, 'worker error'));
    }
    // Shown by `wq status`: which units this worker holds right now.
    this.countWorker.on('active', (job) => this.active.add(String(job.id)));
    this.countWorker.on('completed', (job) => this.active.delete(String(job.id)));
    this.countWorker.on('failed', (job) => job && this.active.delete(String(job.id)));
  }

  private readonly active = new Set<string>();

  /** Starts taking jobs and heartbeating; resolves once both queues are being served. */
  async start(): Promise<void> {
    const { logger, heartbeatMs } = this.options;
    await Promise.all([this.countWorker.waitUntilReady(), this.aggregateWorker.waitUntilReady()]);
    for (const worker of [this.countWorker, this.aggregateWorker]) {
      worker.run().catch((err: unknown) => logger.error({ err }, 'worker stopped'));
    }
    await this.heartbeat();
    this.heartbeatTimer = setInterval(() => {
      this.heartbeat().catch((err: unknown) => logger.warn({ err }, 'heartbeat failed'));
    }, heartbeatMs);
    this.heartbeatTimer.unref();
    logger.info(
      {
        worker: this.id,
        concurrency: this.options.concurrency,
        redis: this.options.config.redisUrl,
      },
      'worker started',
    );
  }

  /**
   * Stops taking jobs, lets active units run for up to the grace period, then hands the rest
   * back to the queue (no attempt spent) and closes every connection. Safe to call twice.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const { logger, shutdownGraceMs } = this.options;
    clearInterval(this.heartbeatTimer);
    logger.info({ graceMs: shutdownGraceMs }, 'worker closing');
    const countClosed = this.countWorker.close();
    const aggregateClosed = this.aggregateWorker.close();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => {
      timer = setTimeout(() => resolve('grace'), shutdownGraceMs);
    });
    const first = await Promise.race([countClosed.then(() => 'closed' as const), graceOver]);
    clearTimeout(timer);
    if (first === 'grace') {
      logger.info('grace period over: handing active units back');
      await this.pool.handBack();
    }
    await Promise.allSettled([countClosed, aggregateClosed]);
    await this.pool.close();
    await this.registry.removeWorker(this.id).catch(() => undefined);
    await this.redis.quit().catch(() => undefined);
    logger.info('worker closed');
  }

  private async heartbeat(): Promise<void> {
    await this.registry.heartbeat({
      id: this.id,
      host: this.id.replace(/-\d+$/, ''),
      pid: process.pid,
      concurrency: this.options.concurrency,
      startedAt: this.startedAt,
      active: [...this.active],
    });
  }
}

/** Builds and starts a worker service. */
export async function startWorkerService(options: WorkerServiceOptions): Promise<WorkerService> {
  const service = new WorkerService(options);
  await service.start();
  return service;
}
