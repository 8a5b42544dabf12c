// The producer's view of the pipeline: submit sweeps, follow them, read results, cancel and
// retry. It talks to Redis only (queues and the result store), never to workers directly.
// A thin facade: each job is its own module (sweep-submitter, sweep-control with
// flow-cleanup, recount, sweep-watcher) over the connection and stores opened here.
import type { FlowProducer, Queue } from 'bullmq';
import { bullmq } from './redis-libraries.js';
import type { RedisClient } from './connection.js';
import {
  type Calibration,
  RedisDiskError,
  RedisUnavailableError,
  redisRefusalOf,
  QUEUE_NAMES,
  queueStreams,
  type WqConfig,
} from '../contracts/index.js';
import { createRedis } from './connection.js';
import { type Disagreement, ResultStore } from './result-store.js';
import { SweepRegistry, type WorkerInfo } from './sweep-registry.js';
import { fulfilsWithin } from './fulfils-within.js';
import { CountQueues } from './count-queues.js';
import type { UnitRouting } from './unit-routing.js';
import type { ClusterDescription } from './cluster-plan.js';
import { ClassicResultStore } from './classic-result-store.js';
import type { ClassicResult } from '../contracts/classic-jobs.js';
import { resultSealOf } from './result-seal.js';
import { SweepProgressReader } from './sweep-progress-reader.js';
import type {
  ProgressQueues,
  ProgressReadOptions,
  SweepProgress,
  UnfitUnit,
} from './sweep-progress.js';
import { FlowCleanup } from './flow-cleanup.js';
import type { PipelineParts } from './pipeline-parts.js';
import { Recount, type VerifyOutcome } from './recount.js';
import { SweepControl } from './sweep-control.js';
import { SweepSubmitter, type SweepSubmission } from './sweep-submitter.js';
import { provenDepths } from './stored-counts.js';
import { SweepWatcher } from './sweep-watcher.js';
import { classic } from './problems/index.js';

export interface SizeResults {
  readonly n: number;
  readonly S?: string;
  /** N(n, D) indexed by D; undefined where the store has no value. */
  readonly N: readonly (string | undefined)[];
}

export interface StatusReport {
  readonly sweeps: readonly SweepProgress[];
  readonly workers: readonly WorkerInfo[];
  /** Live workers of another protocol (another build): they take none of these jobs. */
  readonly otherWorkers: readonly WorkerInfo[];
  readonly jobs: Readonly<Record<string, Record<string, number>>>;
  /** Measured/estimated seconds per algorithm, as the next plan applies them. */
  readonly calibration: Calibration;
  /** Units counted twice with two different values (`wq verify --repair` settles them). */
  readonly disagreements: readonly Disagreement[];
  /** False when WQ_RESULT_KEY is unset: stored results carry no MAC and are not authenticated. */
  readonly authenticated: boolean;
}

/** How long close() waits for Redis before it cuts the connections. */
const CLOSE_MS = 2000;

/** What `submitClassic` did: the sweep id and, per n, whether its flow was added. */
export interface ClassicSubmission {
  readonly sweepId: string;
  readonly problem: 'classic';
  readonly added: number;
  readonly sizes: readonly {
    n: number;
    outcome: 'stored' | 'queued' | 'added';
    jobs: number;
    units: number;
  }[];
}

export class PipelineClient {
  readonly store: ResultStore;
  /** The classic problem's results (Q(n), classes, unit subtotals). */
  readonly classic: ClassicResultStore;
  readonly registry: SweepRegistry;
  private readonly redis: RedisClient;
  /** The connection BullMQ's objects share, when it is not `redis` (a cluster's client). */
  private readonly bullRedis: RedisClient | undefined;
  private readonly queues: { readonly count: CountQueues; readonly aggregate: Queue };
  private readonly flows: FlowProducer;
  private readonly submitter: SweepSubmitter;
  private readonly control: SweepControl;
  private readonly recount: Recount;
  private readonly watcher: SweepWatcher;
  private readonly parts: PipelineParts;

  constructor(private readonly config: WqConfig) {
    this.redis = createRedis(config, 'producer');
    const seal = resultSealOf(config);
    this.store = new ResultStore(this.redis, config.prefix, { seal });
    this.classic = new ClassicResultStore(this.redis, config.prefix, { seal });
    this.registry = new SweepRegistry(this.redis, config.prefix);
    // BullMQ's queues and flow producer share one connection: given options, each would open
    // one and load BullMQ's ~45 scripts on it (~5 ms of CPU each, at every `wq` command). A
    // single Redis gets one of its own; a cluster's client is shared as it is (BullMQ builds
    // only single-node connections from options).
    this.bullRedis =
      config.clusterNodes === undefined ? createRedis(config, 'producer') : undefined;
    const options = {
      connection: this.bullRedis ?? this.redis,
      prefix: config.prefix,
    };
    const queueOptions = { ...options, streams: queueStreams() };
    // Connection errors surface as failed commands (one clear line from ping); the events
    // themselves would print stack traces.
    const remember = (err: Error): void => {
      this.lastError = err;
    };
    this.queues = {
      count: new CountQueues(this.redis, queueOptions, (queue) => queue.on('error', remember)),
      aggregate: new bullmq.Queue(QUEUE_NAMES.aggregate, queueOptions),
    };
    this.flows = new bullmq.FlowProducer(options);
    this.redis.on('error', remember);
    this.bullRedis?.on('error', remember);
    this.queues.aggregate.on('error', remember);
    this.flows.on('error', remember);
    const parts: PipelineParts = {
      config,
      redis: this.redis,
      store: this.store,
      classic: this.classic,
      registry: this.registry,
      queues: this.queues,
      flows: this.flows,
      ping: () => this.ping(),
    };
    this.parts = parts;
    const cleanup = new FlowCleanup(parts);
    const reader = (): SweepProgressReader => this.progressReader;
    this.submitter = new SweepSubmitter(parts, cleanup);
    this.control = new SweepControl(parts, cleanup, this.submitter, reader);
    this.recount = new Recount(parts, cleanup, this.submitter, this.control);
    this.watcher = new SweepWatcher(parts, cleanup, reader);
  }

  private lastError?: Error;

  /**
   * Fails fast with one clear error when Redis cannot be reached. A Redis that cannot write to
   * its disk refuses PING (MISCONF) but is there, and serves reads: that passes.
   */
  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (err) {
      if (redisRefusalOf(err) instanceof RedisDiskError) return;
      // Away now is not a wrong REDIS_URL (the probe before the client said that): a retry helps.
      throw new RedisUnavailableError(
        this.config.redisUrl,
        'unreachable',
        this.lastError?.message ?? (err instanceof Error ? err.message : String(err)),
      );
    }
  }

  /** Enqueues every n that is neither stored nor already queued; returns what it did. */
  async submit(
    ns: readonly number[],
    options: Parameters<SweepSubmitter['submit']>[1] = {},
  ): Promise<SweepSubmission> {
    return this.submitter.submit(ns, options);
  }

  /**
   * The cluster a sweep is planned for: the live workers (the most slots and memory among them:
   * a unit is planned to fit the largest), each slot capped at WQ_MAX_UNIT_BYTES; with none
   * live, one worker like this machine's default.
   */
  async cluster(): Promise<ClusterDescription> {
    return this.submitter.cluster();
  }

  /** Which units go to `count`, and the largest unit a plan may make (see `unitRouting`). */
  async routing(): Promise<UnitRouting> {
    return this.submitter.routing();
  }

  /**
   * The units of these n that wait in a class queue no live worker consumes: their memory
   * class is above every live worker's slot. Read only when such a queue exists.
   */
  async unfitUnits(ns: readonly number[]): Promise<UnfitUnit[]> {
    return this.watcher.unfitUnits(ns);
  }

  /** The one reader of sweep progress (the dashboard reads through it too). */
  get progressReader(): SweepProgressReader {
    this.reader ??= new SweepProgressReader(
      this.redis,
      this.store,
      this.registry,
      this.progressQueues,
      this.classic,
    );
    return this.reader;
  }

  private reader?: SweepProgressReader;

  /** The connection and queues this client reads through, for a front end to share. */
  get connection(): {
    readonly redis: RedisClient;
    readonly queues: ProgressQueues;
    /** `count` and the memory-class count queues in use. */
    readonly countQueues: CountQueues;
  } {
    return { redis: this.redis, queues: this.progressQueues, countQueues: this.queues.count };
  }

  /** The queues progress reads: `count` (units of every worker) and `aggregate`. */
  private get progressQueues(): ProgressQueues {
    return { count: this.queues.count.get(), aggregate: this.queues.aggregate };
  }

  async progress(sweepId: string, options: ProgressReadOptions = {}): Promise<SweepProgress> {
    return this.watcher.progress(sweepId, options);
  }

  /** Names, on each unfinished n, its units that wait for memory no live worker has. */
  async withUnfit(read: SweepProgress): Promise<SweepProgress> {
    return this.watcher.withUnfit(read);
  }

  /**
   * Polls until every n of the sweep is done. Throws when one fails or disappears (cancelled),
   * naming it and the reason; a Redis outage is ridden out (see SweepWatcher.waitFor).
   */
  async waitFor(
    sweepId: string,
    options: Parameters<SweepWatcher['waitFor']>[1] = {},
  ): Promise<SweepProgress> {
    return this.watcher.waitFor(sweepId, options);
  }

  /** `wq verify` (see Recount.verify). */
  async verify(
    ns: readonly number[],
    options: { repair?: boolean } = {},
  ): Promise<VerifyOutcome[]> {
    return this.recount.verify(ns, options);
  }

  /**
   * What is shown as a result: S(n) with its N(n, D) where S(n) holds (its record bears it out
   * and every N(n, D) beside it agrees with the record); elsewhere only the N(n, D) that their
   * units bear out.
   */
  async results(ns: readonly number[]): Promise<SizeResults[]> {
    // All asked at once: one round trip to Redis, not one per n (the end of every --wait).
    const [sums, depthsOf] = await Promise.all([
      this.store.sums(ns),
      Promise.all(ns.map((n) => this.store.depths(n))),
    ]);
    return Promise.all(
      ns.map(async (n, i) => {
        const S = sums.get(n);
        const depths = S === undefined ? await provenDepths(this.store, n) : depthsOf[i];
        const N = Array.from({ length: n }, (_, d) => depths?.get(d)?.value);
        return S === undefined ? { n, N } : { n, S, N };
      }),
    );
  }

  async status(): Promise<StatusReport> {
    const [sweeps, calibration, disagreements, workers, otherWorkers, jobs] = await Promise.all([
      this.registry
        .list()
        .then((list) => this.progressReader.read(list, { timing: true, eta: true }))
        .then((read) => Promise.all(read.map((p) => this.withUnfit(p)))),
      this.store.calibration(),
      this.store.disagreements(),
      this.registry.liveWorkers(),
      this.registry.otherProtocolWorkers(),
      this.jobCounts(),
    ]);
    return {
      sweeps,
      calibration,
      disagreements,
      workers,
      otherWorkers,
      jobs,
      authenticated: this.store.authenticated,
    };
  }

  /** Job counts by state of every count queue and of `aggregate`, by queue name. */
  private async jobCounts(): Promise<Record<string, Record<string, number>>> {
    const counts: Record<string, Record<string, number>> = {};
    for (const queue of await this.queues.count.all())
      counts[queue.name] = await queue.getJobCounts();
    counts[QUEUE_NAMES.aggregate] = await this.queues.aggregate.getJobCounts();
    return counts;
  }

  /** Every job in both queues, whatever its state (used to prove a resubmission adds none). */
  async jobTotal(): Promise<number> {
    let total = 0;
    for (const queue of [...(await this.queues.count.all()), this.queues.aggregate]) {
      const counts = await queue.getJobCounts();
      total += Object.values(counts).reduce((a, b) => a + b, 0);
    }
    return total;
  }

  /**
   * Removes the unfinished n of a sweep from the queues. Units already running cannot be
   * removed while locked: they finish (their values are kept) and are removed after, within
   * `timeoutMs`. Returns the sizes removed and those still left.
   */
  async cancel(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<{ removed: number[]; left: number[] }> {
    return this.control.cancel(sweepId, options);
  }

  /** Re-runs what a sweep is missing: failed or cancelled n are removed and planned again. */
  async retry(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<{ readonly added: number }> {
    return this.control.retry(sweepId, options);
  }

  /** `wq replan`: the unfinished n of a sweep planned again for the workers live now. */
  async replan(sweepId: string, options: { timeoutMs?: number } = {}): Promise<SweepSubmission> {
    return this.control.replan(sweepId, options);
  }

  /** Enqueues Q(n) and its classes for every n not stored and not queued. */
  async submitClassic(
    ns: readonly number[],
    options: { sweepId?: string; verify?: boolean; sample?: number } = {},
  ): Promise<ClassicSubmission> {
    const { sweep, added, sizes } = await this.submitter.submit(ns, {
      ...options,
      problem: 'classic',
    });
    return {
      sweepId: sweep.id,
      problem: 'classic',
      added,
      sizes: sizes.map((size) => ({ ...size, units: size.units ?? 0 })),
    };
  }

  /** Stored classic results of `ns` (all stored n when empty). */
  async classicResults(ns: readonly number[] = []): Promise<Map<number, ClassicResult>> {
    return classic.results(this.parts, ns);
  }

  /**
   * Waits until every n of `ns` has its classic result; rejects with the failed job's reason
   * when a classic sum fails (its units failed for good, or second counts disagreed).
   */
  async waitForClassic(
    ns: readonly number[],
    options: Parameters<SweepWatcher['waitForResults']>[2] = {},
  ): Promise<Map<number, ClassicResult>> {
    return this.watcher.waitForResults(classic, ns, options);
  }

  async close(): Promise<void> {
    const closed = (async () => {
      await Promise.allSettled([
        this.flows.close(),
        this.queues.count.close(),
        this.queues.aggregate.close(),
      ]);
      // BullMQ leaves a connection it was given open: its owner closes it.
      await Promise.allSettled([this.redis.quit(), this.bullRedis?.quit()]);
    })();
    // With Redis away a graceful close waits on reconnects: a client that gave up on Redis
    // (or a dashboard stopped during an outage) must still end promptly.
    if (!(await fulfilsWithin(closed, CLOSE_MS))) {
      this.redis.disconnect();
      this.bullRedis?.disconnect();
      closed.catch(() => undefined);
    }
  }
}
