// One worker process: a BullMQ worker per queue (`count`, the memory-class count queues its slots
// hold, and `aggregate`), the kernel thread pool, heartbeats, and a graceful close that lets
// active units finish within a bound and hands the rest back.
import type { Processor, Worker, WorkerOptions } from 'bullmq';
import {
  bullmq,
  bullConnection,
  ClassicResultStore,
  createRedis,
  fulfilsWithin,
  isConnectionError,
  type RedisClient,
  ResultStore,
  SweepRegistry,
  waitForRedis,
  resultSealOf,
} from '@weak-queens/shared/client';
import {
  CLOCK_SKEW_WARN_MS,
  countClassesKey,
  countQueueClass,
  countQueueNames,
  PROTOCOL_VERSION,
  queueNamesOf,
} from '@weak-queens/shared/contracts';
import { ClassicThreads, KernelPool } from '@weak-queens/shared/kernel';
import { createAggregateProcessor } from './aggregate-processor.js';
import { createCountProcessor } from './count-processor.js';
import { problemProcessors, routeByProblem } from './problem-processors.js';
import { RedisOutage } from './redis-outage.js';
import { CountTally } from './count-tally.js';
import { ErrorBackoff } from './error-backoff.js';
import { buildOf, WORKER_VERSION } from './build-info.js';
import {
  type CompiledWorkerServiceOptions,
  compileWorkerServiceOptions,
  type WorkerServiceOptions,
} from './worker-service-options.js';

/** Aggregations are cheap (a few Redis reads and a sum); a few at once keep sweeps flowing. */
const AGGREGATE_CONCURRENCY = 4;

/** After the grace time, how long closing may wait for Redis before it gives up on it. */
const AFTER_GRACE_MS = 2000;

/** True when `promise` settles within `ms` (its outcome does not matter here). */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return fulfilsWithin(
    promise.catch(() => undefined),
    ms,
  );
}

export class WorkerService {
  readonly id: string;
  /**
   * The protocol it speaks: it consumes that protocol's queues only, and says so in its
   * heartbeat, so builds that would misread each other's jobs share a Redis safely.
   */
  readonly protocol: number;
  /** Its heartbeat's `build` (build-info.ts). */
  private readonly build = buildOf();
  private readonly options: CompiledWorkerServiceOptions;
  private readonly redis: RedisClient;
  private readonly pool: KernelPool;
  /** Threads for the classic problem's units (started on first use). */
  private readonly classicThreads: ClassicThreads;
  private readonly registry: SweepRegistry;
  /** One BullMQ worker per count queue consumed, by queue name; `count` always. */
  private readonly countWorkers = new Map<string, Worker>();
  private readonly countProcessor: Processor;
  private readonly countOptions: WorkerOptions;
  private readonly aggregateWorker: Worker;
  /** When it started, on this host's clock; heartbeats give it on the Redis server's. */
  private readonly startedAt = Date.now();
  /** Whether the last heartbeat found this host's clock off the server's (logged on change). */
  private clockSkewed = false;
  private heartbeatTimer?: NodeJS.Timeout;
  private closing?: Promise<void>;
  private readonly outage: RedisOutage;
  private readonly errors: ErrorBackoff;
  /** The once-a-minute line of units counted (each unit's own line is at debug level). */
  private readonly tally: CountTally;

  constructor(options: WorkerServiceOptions) {
    this.options = compileWorkerServiceOptions(options);
    const { config, logger, concurrency, id } = this.options;
    this.id = id;
    this.protocol = config.testProtocol ?? PROTOCOL_VERSION;
    const queues = queueNamesOf(this.protocol);
    this.outage = new RedisOutage(logger, config.redisWaitLogMs);
    this.tally = new CountTally(logger.child({ module: 'count' }));
    this.errors = new ErrorBackoff({
      logger,
      workers: () => [...this.countWorkers.values(), this.aggregateWorker],
      closing: () => this.closing !== undefined,
    });
    this.redis = createRedis(config, 'worker');
    // Without a listener ioredis prints every failed reconnect (Redis restarting) as unhandled.
    this.redis.on('error', (err) => this.outage.report(err, 'result store'));
    this.pool = new KernelPool(concurrency);
    // Threads started while the worker connects: a small sweep's first units do not wait.
    this.pool
      .warm()
      .catch((err: unknown) => logger.warn({ err }, 'kernel threads did not warm up'));
    const seal = resultSealOf(config);
    const store = new ResultStore(this.redis, config.prefix, { seal });
    this.registry = new SweepRegistry(this.redis, config.prefix, { protocol: this.protocol });
    const connection = bullConnection(config, 'worker', this.redis);
    // metrics: per-minute completed/failed counts, which the dashboard's /metrics exports.
    const metrics = { maxDataPoints: bullmq.MetricsTime.ONE_WEEK };
    // A dead or cut-off worker's jobs are put back once their lock lapses (stall detection).
    const stalls = {
      lockDuration: config.lockMs,
      stalledInterval: config.stalledIntervalMs,
      maxStalledCount: config.maxStalled,
    };
    const common = { connection, prefix: config.prefix, name: id, autorun: false, metrics };
    this.classicThreads = new ClassicThreads(concurrency);
    const problems = problemProcessors({
      store: new ClassicResultStore(this.redis, config.prefix, { seal }),
      threads: this.classicThreads,
      workerId: id,
      logger: logger.child({ module: 'classic' }),
      liveWorkers: () => this.registry.liveWorkers(),
    });
    // A write Redis refuses for a while is waited out, said once an episode with its other errors.
    const refusals = {
      limitMs: config.redisOutageMs,
      report: (refusal: Error, what: string) => this.errors.report(refusal, what, false),
    };
    const weakCount = createCountProcessor({
      store,
      pool: this.pool,
      workerId: id,
      logger: logger.child({ module: 'count' }),
      progressIntervalMs: this.options.progressIntervalMs,
      tally: this.tally,
      failJobs: config.testFailJobs,
      // What the heartbeat advertises (config, shared among these slots): one value for both.
      memory: config,
      refusals,
    });
    this.countProcessor = routeByProblem(weakCount, problems.count);
    // Each count queue's worker may take `concurrency` units; the pool's gate runs at most that
    // many at once in all (a unit fetched while every slot is busy waits for one, its lock held).
    this.countOptions = { ...common, ...stalls, concurrency };
    this.addCountWorker(queues.count);
    this.aggregateWorker = new bullmq.Worker(
      queues.aggregate,
      routeByProblem(
        createAggregateProcessor({
          store,
          logger: logger.child({ module: 'aggregate' }),
          prefix: config.prefix,
          refusals,
        }),
        problems.aggregate,
      ),
      { ...common, ...stalls, concurrency: AGGREGATE_CONCURRENCY },
    );
    this.watchErrors(this.aggregateWorker, queues.aggregate);
  }

  private watchErrors(worker: Worker, queue: string): void {
    worker.on('error', (err) => {
      if (isConnectionError(err)) this.outage.report(err, `${queue} queue`);
      else this.errors.report(err, `${queue} queue`);
    });
    worker.on('completed', () => this.errors.succeeded());
  }

  private addCountWorker(queue: string): Worker {
    const worker = new bullmq.Worker(queue, this.countProcessor, this.countOptions);
    this.watchErrors(worker, queue);
    // Shown by `wq status`: which units this worker holds right now.
    worker.on('active', (job) => this.active.set(String(job.id), Date.now()));
    worker.on('completed', (job) => this.finished(String(job.id)));
    worker.on('failed', (job) => job && this.finished(String(job.id)));
    this.countWorkers.set(queue, worker);
    return worker;
  }

  /**
   * Starts consuming the class queues producers have listed whose memory class this worker's
   * slot holds (read at start and at each heartbeat: a class queue appears when a sweep first
   * plans a unit for it). With one kind of worker the list is empty and this is one SMEMBERS.
   */
  private async consumeFittingClasses(): Promise<void> {
    const { logger, config } = this.options;
    const listed = countQueueNames(
      await this.redis.smembers(countClassesKey(config.prefix)),
      this.protocol,
    );
    for (const queue of listed) {
      const bytes = countQueueClass(queue, this.protocol) ?? Number.POSITIVE_INFINITY;
      const slotBytes = config.slotMemoryBytes;
      if (this.countWorkers.has(queue) || bytes > slotBytes || this.closing) continue;
      const worker = this.addCountWorker(queue);
      await worker.waitUntilReady();
      worker.run().catch((err: unknown) => logger.error({ err, queue }, 'worker stopped'));
      logger.info({ queue, slotBytes }, 'consuming a memory-class count queue');
    }
  }

  /** Count job id → when it became active; with the totals below it feeds the dashboard. */
  private readonly active = new Map<string, number>();
  private jobsDone = 0;
  private busyMs = 0;

  private finished(id: string): void {
    const since = this.active.get(id);
    if (since === undefined) return;
    this.active.delete(id);
    this.jobsDone += 1;
    this.busyMs += Date.now() - since;
  }

  /** Starts taking jobs and heartbeating; resolves once both queues are being served. */
  async start(): Promise<void> {
    const { logger, heartbeatMs } = this.options;
    const workers = [...this.countWorkers.values(), this.aggregateWorker];
    // Classic units are short: their threads start with the worker, not with the first one.
    this.classicThreads.warm();
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    for (const worker of workers) {
      worker.run().catch((err: unknown) => logger.error({ err }, 'worker stopped'));
    }
    await this.consumeFittingClasses();
    await this.heartbeat();
    this.heartbeatTimer = setInterval(() => {
      Promise.all([this.heartbeat(), this.consumeFittingClasses()]).then(
        () => this.outage.recovered(),
        (err: unknown) => {
          if (isConnectionError(err)) this.outage.report(err, 'heartbeat');
          else this.errors.report(err, 'heartbeat', false);
        },
      );
    }, heartbeatMs);
    this.heartbeatTimer.unref();
    logger.info(
      {
        worker: this.id,
        concurrency: this.options.concurrency,
        slotBytes: this.options.config.slotMemoryBytes,
        redis: this.options.config.redisUrl,
        protocol: this.protocol,
        build: this.build,
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
    this.errors.close();
    this.tally.close();
    logger.info({ graceMs: shutdownGraceMs }, 'worker closing');
    const countClosed = Promise.all([...this.countWorkers.values()].map((w) => w.close()));
    const aggregateClosed = this.aggregateWorker.close();
    if (!(await fulfilsWithin(countClosed, shutdownGraceMs))) {
      logger.info('grace period over: handing active units back');
      await this.pool.handBack();
    }
    // With Redis away BullMQ's close never ends: give closing a bounded time in all, then leave
    // the units to stall detection (their locks lapse) rather than hang past the grace time.
    const deadline = Date.now() + AFTER_GRACE_MS;
    const left = (): number => Math.max(0, deadline - Date.now());
    const closed = await within(Promise.allSettled([countClosed, aggregateClosed]), left());
    await Promise.all([this.pool.close(), this.classicThreads.close()]);
    const unlisted = closed && (await within(this.registry.removeWorker(this.id), left()));
    if (!unlisted || !(await within(this.redis.quit(), left()))) this.redis.disconnect();
    if (closed && unlisted) logger.info('worker closed');
    else logger.warn('worker closed without Redis: its units run again once their locks lapse');
  }

  private async heartbeat(): Promise<void> {
    // Times in the heartbeat are put on the Redis server's clock, which every reader shares.
    const { skewMs } = await this.registry.clock();
    this.noteClockSkew(skewMs);
    const now = Date.now();
    await this.registry.heartbeat({
      id: this.id,
      host: this.id.replace(/-\d+$/, ''),
      pid: process.pid,
      concurrency: this.options.concurrency,
      // The heartbeat's names for them (stored records: older producers read these).
      memoryBytes: this.options.config.workerMemoryBytes,
      slotBytes: this.options.config.slotMemoryBytes,
      version: WORKER_VERSION,
      protocol: this.protocol,
      build: this.build,
      startedAt: new Date(this.startedAt - skewMs).toISOString(),
      active: [...this.active.keys()],
      jobsDone: this.jobsDone,
      busyMs: this.busyMs + [...this.active.values()].reduce((t, since) => t + (now - since), 0),
      heartbeatAt: new Date(now - skewMs).toISOString(),
      clockSkewMs: skewMs,
    });
  }

  /** One log line when this host's clock goes off the server's by CLOCK_SKEW_WARN_MS, one back. */
  private noteClockSkew(skewMs: number): void {
    const skewed = Math.abs(skewMs) > CLOCK_SKEW_WARN_MS;
    if (skewed === this.clockSkewed) return;
    this.clockSkewed = skewed;
    if (skewed) {
      this.options.logger.warn(
        { clockSkewMs: skewMs },
        "this host's clock differs from the Redis server's: liveness uses the server's; sync the clock (NTP)",
      );
    } else {
      this.options.logger.info(
        { clockSkewMs: skewMs },
        "clock agrees with the Redis server's again",
      );
    }
  }
}

/**
 * Builds and starts a worker service, once Redis answers: until then it waits, with a log line
 * when the wait starts and at most one per WQ_REDIS_WAIT_LOG_MS after. A REDIS_URL that can
 * never work (a database the server does not have, a refused password) is thrown at once.
 */
export async function startWorkerService(
  options: WorkerServiceOptions,
  signal?: AbortSignal,
): Promise<WorkerService> {
  const { config, logger } = options;
  const outage = new RedisOutage(logger, config.redisWaitLogMs);
  await waitForRedis(config, {
    delayMs: (attempt) => Math.min(1000 * attempt, 5000),
    onRetry: (err) => outage.report(err, 'start'),
    ...(signal ? { signal } : {}),
  });
  outage.recovered();
  const service = new WorkerService(options);
  await service.start();
  return service;
}
