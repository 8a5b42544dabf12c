// GET /metrics: prom-client's registry (process metrics, unit durations and throughput seen on
// the queue events, worker gauges from heartbeats) followed by BullMQ's own export per queue.
import type { Queue, QueueEvents } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  bullmq,
  type CountQueues,
  createRedis,
  fulfilsWithin,
  type Logger,
  type RedisClient,
  redisOptions,
  type SweepRegistry,
} from '@weak-queens/shared/client';
import { QUEUE_NAMES, type WqConfig } from '@weak-queens/shared/contracts';
import { mergeExpositions } from './exposition.js';
import type { SweepView } from './snapshot.js';

/** How long closing waits for Redis before it cuts the event streams. */
const CLOSE_MS = 1000;

type Worker = Awaited<ReturnType<SweepRegistry['liveWorkers']>>[number];

export interface DashboardMetricsOptions {
  readonly config: WqConfig;
  readonly logger: Logger;
  /** `count` and the memory-class count queues in use (each is exported once seen). */
  readonly countQueues: CountQueues;
  readonly aggregate: Queue;
  readonly registry: SweepRegistry;
  /**
   * The sweeps as the page shows them (the same reader: percent of work done and ETA); each
   * running one is exported with both.
   */
  readonly sweeps?: () => Promise<readonly SweepView[]>;
}

export class DashboardMetrics {
  readonly register = new Registry();
  /** The event stream read per queue, by queue name: class queues join when first listed. */
  private readonly events = new Map<string, QueueEvents>();
  /** On a cluster, each QueueEvents's own client (BullMQ leaves a client it was given open). */
  private readonly clusterClients: RedisClient[] = [];
  private readonly unitSeconds: Histogram<'algorithm'>;
  private readonly unitsCompleted: Counter<'worker'>;
  private readonly jobsCompleted: Counter<'queue'>;
  private readonly jobsFailed: Counter<'queue'>;

  constructor(private readonly options: DashboardMetricsOptions) {
    const register = this.register;
    collectDefaultMetrics({ register, prefix: 'wq_dashboard_' });
    this.unitSeconds = new Histogram({
      name: 'wq_unit_duration_seconds',
      help: 'Compute time of count units completed while the dashboard was running',
      labelNames: ['algorithm'],
      buckets: [0.01, 0.05, 0.25, 1, 5, 15, 30, 60, 120, 300, 900, 3600],
      registers: [register],
    });
    this.unitsCompleted = new Counter({
      name: 'wq_units_completed_total',
      help: 'Count units completed per worker while the dashboard was running (throughput)',
      labelNames: ['worker'],
      registers: [register],
    });
    this.jobsCompleted = new Counter({
      name: 'wq_jobs_completed_total',
      help: 'Jobs completed while the dashboard was running',
      labelNames: ['queue'],
      registers: [register],
    });
    this.jobsFailed = new Counter({
      name: 'wq_jobs_failed_total',
      help: 'Jobs failed (after their last attempt) while the dashboard was running',
      labelNames: ['queue'],
      registers: [register],
    });
    const registry = options.registry;
    // The three worker gauges are collected concurrently: one heartbeat read serves a scrape.
    let workers: Worker[] = [];
    let read: { at: number; done: Promise<void> } | undefined;
    const refreshWorkers = (): Promise<void> => {
      if (!read || Date.now() - read.at > 500) {
        read = {
          at: Date.now(),
          done: registry.liveWorkers().then((live) => {
            workers = live;
          }),
        };
      }
      return read.done;
    };
    new Gauge({
      name: 'wq_workers_live',
      help: 'Worker processes with a recent heartbeat',
      registers: [register],
      async collect() {
        await refreshWorkers();
        this.set(workers.length);
      },
    });
    // A gauge with one value per live worker that reports it (undefined: the worker does not).
    const perWorker = (name: string, help: string, value: (w: Worker) => number | undefined) =>
      new Gauge({
        name,
        help,
        labelNames: ['worker'],
        registers: [register],
        async collect() {
          await refreshWorkers();
          this.reset();
          for (const w of workers) {
            const v = value(w);
            if (v !== undefined) this.set({ worker: w.id }, v);
          }
        },
      });
    perWorker(
      'wq_worker_jobs_done',
      'Count units each live worker finished since it started',
      (w) => w.jobsDone,
    );
    perWorker(
      'wq_worker_busy_ratio',
      'Share of its slots time each live worker spent on units since it started',
      (w) => {
        const span = (Date.parse(w.heartbeatAt ?? '') - Date.parse(w.startedAt)) * w.concurrency;
        return w.busyMs !== undefined && span > 0 ? Math.min(1, w.busyMs / span) : undefined;
      },
    );
    const sweeps = options.sweeps;
    if (sweeps) {
      // Both sweep gauges are collected concurrently: one read of the sweeps serves a scrape.
      let running: { at: number; done: Promise<readonly SweepView[]> } | undefined;
      const readRunning = (): Promise<readonly SweepView[]> => {
        if (!running || Date.now() - running.at > 500) {
          running = {
            at: Date.now(),
            done: sweeps().then((all) => all.filter((s) => s.status === 'running')),
          };
        }
        return running.done;
      };
      const perSweep = (name: string, help: string, value: (s: SweepView) => number | null) =>
        new Gauge({
          name,
          help,
          labelNames: ['sweep'],
          registers: [register],
          async collect() {
            const list = await readRunning();
            this.reset();
            for (const s of list) {
              const v = value(s);
              if (v !== null) this.set({ sweep: s.id }, v);
            }
          },
        });
      perSweep(
        'wq_sweep_work_done_ratio',
        "Share of each running sweep's work done, by core-seconds (running units included)",
        (s) => s.workDone,
      );
      perSweep(
        'wq_sweep_eta_seconds',
        'Seconds each running sweep still needs at its measured rates, on the live slots',
        (s) => s.etaSeconds,
      );
    }
    for (const name of [QUEUE_NAMES.count, QUEUE_NAMES.aggregate]) this.watch(name);
  }

  private watch(name: string): void {
    if (this.events.has(name)) return;
    const { config } = this.options;
    // QueueEvents blocks on its stream read, so it gets a client of its own, never a shared one.
    const client = config.clusterNodes === undefined ? undefined : createRedis(config, 'worker');
    if (client !== undefined) {
      client.on('error', (err: Error) => this.options.logger.debug({ err }, 'queue events error'));
      this.clusterClients.push(client);
    }
    const connection = client ?? redisOptions(config, 'worker');
    const events = new bullmq.QueueEvents(name, { connection, prefix: this.options.config.prefix });
    events.on('completed', ({ returnvalue }) => this.completed(name, returnvalue));
    events.on('failed', () => this.jobsFailed.inc({ queue: name }));
    events.on('error', (err) => this.options.logger.debug({ err }, 'queue events error'));
    this.events.set(name, events);
  }

  /** Resolves once the event streams are being read (tests wait for it). */
  async ready(): Promise<void> {
    await Promise.all([...this.events.values()].map((e) => e.waitUntilReady()));
  }

  private completed(queue: string, value: unknown): void {
    this.jobsCompleted.inc({ queue });
    if (typeof value !== 'object' || value === null) return;
    const unit = value as {
      kind?: unknown;
      seconds?: unknown;
      worker?: unknown;
      algorithm?: unknown;
    };
    if (unit.kind !== 'unit' || typeof unit.seconds !== 'number') return;
    this.unitSeconds.observe({ algorithm: String(unit.algorithm) }, unit.seconds);
    if (typeof unit.worker === 'string') this.unitsCompleted.inc({ worker: unit.worker });
  }

  get contentType(): string {
    return this.register.contentType;
  }

  async text(): Promise<string> {
    const queues = [...(await this.options.countQueues.all()), this.options.aggregate];
    for (const queue of queues) this.watch(queue.name);
    const [own, ...bull] = await Promise.all([
      this.register.metrics(),
      ...queues.map((q) => q.exportPrometheusMetrics()),
    ]);
    return mergeExpositions([own ?? '', ...bull]);
  }

  async close(): Promise<void> {
    const closed = Promise.allSettled([...this.events.values()].map((e) => e.close()));
    // Their connections wait through outages: with Redis away a graceful close would wait for
    // a reconnect that may never come, and SIGTERM would take the whole grace. Cut instead.
    if (!(await fulfilsWithin(closed, CLOSE_MS))) {
      for (const events of this.events.values()) events.disconnect().catch(() => undefined);
    }
    for (const client of this.clusterClients) client.disconnect();
  }
}
