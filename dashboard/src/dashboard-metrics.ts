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
    // The worker gauges are collected concurrently: one heartbeat read serves a scrape.
    const liveWorkers = sharedRead(() => options.registry.liveWorkers());
    new Gauge({
      name: 'wq_workers_live',
      help: 'Worker processes with a recent heartbeat',
      registers: [register],
      async collect() {
        this.set((await liveWorkers()).length);
      },
    });
    perItem(register, 'worker', liveWorkers, (w) => w.id, {
      name: 'wq_worker_jobs_done',
      help: 'Count units each live worker finished since it started',
      value: (w) => w.jobsDone,
    });
    perItem(register, 'worker', liveWorkers, (w) => w.id, {
      name: 'wq_worker_busy_ratio',
      help: 'Share of its slots time each live worker spent on units since it started',
      value: (w) => {
        const span = (Date.parse(w.heartbeatAt ?? '') - Date.parse(w.startedAt)) * w.concurrency;
        return w.busyMs !== undefined && span > 0 ? Math.min(1, w.busyMs / span) : undefined;
      },
    });
    const sweeps = options.sweeps;
    if (sweeps) {
      // Both sweep gauges are collected concurrently: one read of the sweeps serves a scrape.
      const running = sharedRead(async () =>
        (await sweeps()).filter((s) => s.status === 'running'),
      );
      perItem(register, 'sweep', running, (s) => s.id, {
        name: 'wq_sweep_work_done_ratio',
        help: "Share of each running sweep's work done, by core-seconds (running units included)",
        value: (s) => s.workDone,
      });
      perItem(register, 'sweep', running, (s) => s.id, {
        name: 'wq_sweep_eta_seconds',
        help: 'Seconds each running sweep still needs at its measured rates, on the live slots',
        value: (s) => s.etaSeconds,
      });
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

/** `read`, shared by every call within 500 ms of the last real one (the gauges of one scrape). */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; done: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > 500) last = { at: Date.now(), done: read() };
    return last.done;
  };
}

/** A gauge with one value per item that has one (null or undefined: it has none). */
function perItem<T>(
  register: Registry,
  label: string,
  items: () => Promise<readonly T[]>,
  id: (item: T) => string,
  gauge: { name: string; help: string; value: (item: T) => number | null | undefined },
): void {
  new Gauge({
    name: gauge.name,
    help: gauge.help,
    labelNames: [label],
    registers: [register],
    async collect() {
      const list = await items();
      this.reset();
      for (const item of list) {
        const v = gauge.value(item);
        if (v !== null && v !== undefined) this.set({ [label]: id(item) }, v);
      }
    },
  });
}
