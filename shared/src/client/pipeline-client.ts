// The producer's view of the pipeline: submit sweeps, follow them, read results, cancel and
// retry. It talks to Redis only (queues and the result store), never to workers directly.
import { randomBytes } from 'node:crypto';
import { type FlowJob, type FlowJobNode, FlowProducer, type Job, Queue } from 'bullmq';
import type { RedisClient } from './connection.js';
import {
  type Calibration,
  type Mismatch,
  InvalidInputError,
  RedisUnavailableError,
  countQueueClass,
  isCountQueue,
  QUEUE_NAMES,
  queueStreams,
  type UnitJobData,
  sumJobId,
  type WqConfig,
} from '../contracts/index.js';
import { createRedis } from './connection.js';
import { type Disagreement, ResultStore } from './result-store.js';
import { type SweepRecord, SweepRegistry, type WorkerInfo } from './sweep-registry.js';
import { bullConnection } from './connection.js';
import { OutageRider } from './outage-rider.js';
import { fulfilsWithin } from './fulfils-within.js';
import { CountQueues } from './count-queues.js';
import { advertisedMemory, type UnitRouting, unitRouting } from './unit-routing.js';
import { type ClusterDescription, clusterMemory, planForCluster } from './cluster-plan.js';
import { type PlannedSize, planSize } from './sweep-planner.js';
import { ClassicResultStore } from './classic-result-store.js';
import { planClassic, type PlannedClassic } from './classic-planner.js';
import { type ClassicResult, classicSumJobId } from '../contracts/classic-jobs.js';
import { AggregateSignal } from './aggregate-signal.js';
import { SubmitLock } from './submit-lock.js';
import { resultSealOf } from './result-seal.js';
import { HugeSweepError, SweepFailedError } from './errors.js';
import { estimateSweepSeconds } from './sweep-estimate.js';
import {
  type SweepProgress,
  type UnfitUnit,
  SweepProgressReader,
  type ProgressQueues,
  type ProgressReadOptions,
} from './sweep-progress-reader.js';

export interface SweepSubmission {
  readonly sweep: SweepRecord;
  /** Jobs added to the queues by this submission. */
  readonly added: number;
  readonly sizes: readonly { n: number; outcome: 'stored' | 'queued' | 'added'; jobs: number }[];
  /** Seconds spent planning (kernel estimates, plan records) and adding the flows. */
  readonly timing: { readonly planSeconds: number; readonly enqueueSeconds: number };
}

/** What a submission is doing, and how far its planning is (0 to 1; none once queuing). */
export interface PlanningStep {
  readonly what: string;
  readonly fraction?: number;
}

/** The share of planning time the cluster plan takes (the rest: recording each n's plan). */
const CLUSTER_PLAN_SHARE = 0.7;

/**
 * How long a submitter's mark lasts unless renewed (a third of it between renewals): a sweep
 * whose submitter died reads as interrupted this long after.
 */
const SUBMITTING_TTL_MS = 6000;

/** What `wq verify` found for one n. */
export interface VerifyOutcome {
  readonly n: number;
  /**
   * `verified`: every stored N(n, D) agreed with a recount; `repaired`: a disagreement was
   * counted afresh and both algorithms now agree; `disagrees`: S(n) was withdrawn, both values
   * kept (or units were counted twice with two values); `missing`: nothing stored to verify.
   */
  readonly outcome: 'verified' | 'repaired' | 'disagrees' | 'missing';
  readonly S?: string;
  readonly mismatch?: Mismatch;
  readonly disagreements?: readonly Disagreement[];
  readonly reason?: string;
}

export interface SizeResults {
  readonly n: number;
  readonly S?: string;
  /** N(n, D) indexed by D; undefined where the store has no value. */
  readonly N: readonly (string | undefined)[];
}

export interface StatusReport {
  readonly sweeps: readonly SweepProgress[];
  readonly workers: readonly WorkerInfo[];
  readonly jobs: Readonly<Record<string, Record<string, number>>>;
  /** Measured/estimated seconds per algorithm, as the next plan applies them. */
  readonly calibration: Calibration;
  /** Units counted twice with two different values (`wq verify --repair` settles them). */
  readonly disagreements: readonly Disagreement[];
  /** False when WQ_RESULT_KEY is unset: stored results carry no MAC and are not authenticated. */
  readonly authenticated: boolean;
}

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

/** How long close() waits for Redis before it cuts the connections. */
const CLOSE_MS = 2000;

/**
 * A fresh sweep id. A submitter that may have to submit again (Redis went away meanwhile)
 * chooses it first and passes it as `sweepId`, so both tries make one sweep.
 */
export function newSweepId(): string {
  return `s-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

export class PipelineClient {
  readonly store: ResultStore;
  /** The classic problem's results (Q(n), classes, unit subtotals). */
  readonly classic: ClassicResultStore;
  readonly registry: SweepRegistry;
  private readonly redis: RedisClient;
  private readonly queues: { readonly count: CountQueues; readonly aggregate: Queue };
  private readonly flows: FlowProducer;

  constructor(private readonly config: WqConfig) {
    this.redis = createRedis(config, 'producer');
    const seal = resultSealOf(config);
    this.store = new ResultStore(this.redis, config.prefix, { seal });
    this.classic = new ClassicResultStore(this.redis, config.prefix, { seal });
    this.registry = new SweepRegistry(this.redis, config.prefix);
    const options = {
      connection: bullConnection(config, 'producer', this.redis),
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
      aggregate: new Queue(QUEUE_NAMES.aggregate, queueOptions),
    };
    this.flows = new FlowProducer(options);
    this.redis.on('error', remember);
    this.queues.aggregate.on('error', remember);
    this.flows.on('error', remember);
  }

  private lastError?: Error;

  /** Fails fast with one clear error when Redis cannot be reached. */
  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (err) {
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
    options: {
      targetSeconds?: number;
      sweepId?: string;
      verify?: boolean;
      audit?: boolean;
      /** Plan for this cluster rather than the live workers (e.g. one about to be started). */
      cluster?: ClusterDescription;
      /** Queue it even when estimated beyond WQ_MAX_SWEEP_CORE_SECONDS (`--allow-huge`). */
      allowHuge?: boolean;
      /** Told as planning moves on, so that long planning need not be a silence. */
      onPlanning?: (step: PlanningStep) => void;
    } = {},
  ): Promise<SweepSubmission> {
    await this.ping();
    const targetSeconds = options.targetSeconds ?? this.config.targetSeconds;
    const id = options.sweepId ?? newSweepId();
    const sizes: { n: number; outcome: 'stored' | 'queued' | 'added'; jobs: number }[] = [];
    const units: Record<string, number> = {};
    const estimates: Record<string, number> = {};
    const calibration = await this.store.calibration();
    // Plan every n before adding any, so the workers see the whole sweep's priorities at once.
    const planStarted = performance.now();
    // Algorithms and unit sizes for the workers there are (or, before any has started, for
    // this machine as `npm start` runs it), to end the sweep soonest rather than to do least.
    const live = await this.registry.liveWorkers();
    const routing = this.routingFor(live);
    const cluster = options.cluster ?? this.clusterOf(live, routing);
    if (!options.allowHuge) await this.refuseHuge(ns, cluster, calibration, options);
    const what = 'choosing algorithms and unit sizes';
    const { depthPlans } = planForCluster(ns, cluster, {
      targetSeconds,
      calibration,
      ...(options.onPlanning
        ? {
            onProgress: (f: number) =>
              options.onPlanning?.({ what, fraction: CLUSTER_PLAN_SHARE * f }),
          }
        : {}),
    });
    const plans: PlannedSize[] = [];
    for (const n of ns) {
      const fraction = CLUSTER_PLAN_SHARE + ((1 - CLUSTER_PLAN_SHARE) * plans.length) / ns.length;
      options.onPlanning?.({ what: `recording the plan of n = ${n}`, fraction });
      const planned = await planSize(n, this.store, {
        sweepId: id,
        targetSeconds,
        attempts: this.config.attempts,
        ...clusterMemory(cluster),
        calibration,
        depthPlans,
        baseUnitBytes: routing.baseUnitBytes,
        baseTransferBytes: routing.workerMemoryBytes,
        verify: (options.verify ?? false) || (options.audit ?? false),
        audit: options.audit ?? false,
      });
      units[n] = planned.units;
      estimates[n] = planned.estimateSeconds;
      plans.push(planned);
    }
    const enqueueStarted = performance.now();
    // The record exists before the first job is queued and says, n by n, what was: a submitter
    // that dies half-way (Ctrl-C, a hangup) leaves a sweep that `wq status` shows as interrupted
    // and `wq retry` finishes, not jobs that belong to no sweep.
    const existing = options.sweepId ? await this.registry.find(options.sweepId) : undefined;
    const queued: number[] = [];
    // On the Redis server's clock, as progress reads it: elapsed time is not off by this host's.
    const createdAt =
      existing?.createdAt ?? new Date((await this.registry.clock()).redisMs).toISOString();
    const record = (): SweepRecord => ({
      id,
      ns: [...ns],
      createdAt,
      targetSeconds,
      units,
      estimates,
      ...(options.verify || options.audit ? { verify: true } : {}),
      queued: [...queued],
    });
    await this.registry.markSubmitting(id, SUBMITTING_TTL_MS);
    await this.registry.save(record());
    const lease = setInterval(() => {
      this.registry.markSubmitting(id, SUBMITTING_TTL_MS).catch(() => undefined);
    }, SUBMITTING_TTL_MS / 3);
    lease.unref();
    try {
      await this.addFlows(id, plans, sizes, options.audit ?? false, async (n) => {
        queued.push(n);
        await this.registry.save(record());
        options.onPlanning?.({ what: `queued n = ${n}, ${queued.length} of ${ns.length} n` });
      });
    } finally {
      clearInterval(lease);
    }
    const sweep: SweepRecord = { ...record(), submittedAt: new Date().toISOString() };
    await this.registry.save(sweep);
    await this.registry.doneSubmitting(id);
    const added = sizes.reduce((sum, size) => sum + size.jobs, 0);
    const timing = {
      planSeconds: (enqueueStarted - planStarted) / 1000,
      enqueueSeconds: (performance.now() - enqueueStarted) / 1000,
    };
    return { sweep, added, sizes, timing };
  }

  /**
   * Refuses a sweep whose cheapest estimate (the kernel's, calibrated, per (n, D) without
   * splitting: about a second even for n = 32) is beyond WQ_MAX_SWEEP_CORE_SECONDS, before
   * anything is planned in full or queued. Stored n cost nothing (unless counted again).
   */
  private async refuseHuge(
    ns: readonly number[],
    cluster: ClusterDescription,
    calibration: Calibration,
    options: { readonly verify?: boolean; readonly audit?: boolean },
  ): Promise<void> {
    const recount = (options.verify ?? false) || (options.audit ?? false);
    const stored = recount ? new Map<number, string>() : await this.store.sums(ns);
    const todo = ns.filter((n) => !stored.has(n));
    const coreSeconds = estimateSweepSeconds(todo, {
      // The most memory any unit may get: the estimate is then the least the work can cost.
      slotMemoryBytes: cluster.workerMemoryBytes,
      calibration,
      verify: recount,
    });
    const max = this.config.maxSweepCoreSeconds;
    if (coreSeconds > max) {
      throw new HugeSweepError(todo, coreSeconds, cluster.workers * cluster.slots, max);
    }
  }

  /**
   * The cluster a sweep is planned for: the live workers (the most slots and memory among them:
   * a unit is planned to fit the largest), never above this process's WQ_SLOT_MEMORY and
   * WQ_WORKER_MEMORY; with none live, one worker as this configuration would start it.
   */
  async cluster(): Promise<ClusterDescription> {
    const live = await this.registry.liveWorkers();
    return this.clusterOf(live, this.routingFor(live));
  }

  /** Which units go to `count`, and the largest unit a plan may make (see `unitRouting`). */
  async routing(): Promise<UnitRouting> {
    return this.routingFor(await this.registry.liveWorkers());
  }

  private routingFor(live: readonly WorkerInfo[]): UnitRouting {
    return unitRouting(live, this.config);
  }

  private clusterOf(live: readonly WorkerInfo[], routing: UnitRouting): ClusterDescription {
    // A slot holds units up to the routing's slot memory; a window transfer, alone on all of
    // a worker's slots, up to its worker memory.
    const memory = {
      slotMemoryBytes: routing.slotMemoryBytes,
      workerMemoryBytes: routing.workerMemoryBytes,
    };
    if (live.length === 0) return { workers: 1, slots: this.config.concurrency, ...memory };
    const slots = Math.max(...live.map((w) => w.concurrency));
    return { workers: live.length, slots, ...memory };
  }

  /**
   * The units of these n that wait in a class queue no live worker consumes: their memory
   * class is above every live worker's slot. Read only when such a queue exists.
   */
  async unfitUnits(ns: readonly number[]): Promise<UnfitUnit[]> {
    if (ns.length === 0) return [];
    const names = await this.queues.count.names();
    if (names.length === 1) return [];
    const live = await this.registry.liveWorkers();
    const largestSlotBytes = live.length
      ? Math.max(...live.map((w) => advertisedMemory(w).slotMemoryBytes))
      : 0;
    const unfit: UnfitUnit[] = [];
    for (const name of names) {
      if ((countQueueClass(name) ?? 0) <= largestSlotBytes) continue;
      const queue = this.queues.count.get(name);
      const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, 999);
      for (const job of jobs) {
        const data = job?.data as Partial<UnitJobData> | undefined;
        if (!job?.id || !data || typeof data.n !== 'number' || !ns.includes(data.n)) continue;
        unfit.push({
          jobId: job.id,
          queue: name,
          n: data.n,
          depth: data.depth ?? 0,
          bytes: data.bytes ?? countQueueClass(name) ?? 0,
          largestSlotBytes,
        });
      }
    }
    return unfit.sort((a, b) => a.n - b.n || a.depth - b.depth || b.bytes - a.bytes);
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
    return this.withUnfit(await this.progressReader.sweep(sweepId, options));
  }

  /** Names, on each unfinished n, its units that wait for memory no live worker has. */
  async withUnfit(read: SweepProgress): Promise<SweepProgress> {
    // And the n an unfinished (or interrupted) submission has not queued.
    const notQueued = await this.registry.notQueued(read.sweep, read.sizes);
    const progress = notQueued ? { ...read, notQueued } : read;
    const open = progress.sizes.filter((s) => s.state !== 'done').map((s) => s.n);
    const unfit = await this.unfitUnits(open);
    if (unfit.length === 0) return progress;
    return {
      ...progress,
      sizes: progress.sizes.map((size) => {
        const stuck = unfit.filter((u) => u.n === size.n);
        return stuck.length ? { ...size, unfit: stuck } : size;
      }),
    };
  }

  /**
   * Polls until every n of the sweep is done. Throws when one fails or disappears (cancelled),
   * naming it and the reason. A lost connection (Redis restarting) is waited out for up to
   * `reconnectMs` (default WQ_REDIS_OUTAGE_MS): the sweep goes on without us, so we just poll
   * again; past it, one RedisUnavailableError.
   */
  async waitFor(
    sweepId: string,
    options: {
      onProgress?: (p: SweepProgress) => void;
      /** Once per Redis outage, when it starts. */
      onDisconnect?: (err: Error) => void;
      /** Once per Redis outage, when Redis answers again. */
      onReconnect?: (downMs: number) => void;
      intervalMs?: number;
      reconnectMs?: number;
    } = {},
  ): Promise<SweepProgress> {
    return this.withAggregateSignal((signal) => this.followSweep(sweepId, options, signal));
  }

  /** Runs a wait with an AggregateSignal to wake it, closed however the wait ends. */
  private async withAggregateSignal<T>(wait: (signal: AggregateSignal) => Promise<T>): Promise<T> {
    const signal = new AggregateSignal(this.config);
    try {
      return await wait(signal);
    } finally {
      await signal.close();
    }
  }

  private async followSweep(
    sweepId: string,
    options: Parameters<PipelineClient['waitFor']>[1] & object,
    signal: AggregateSignal,
  ): Promise<SweepProgress> {
    const rider = new OutageRider({
      url: this.config.redisUrl,
      boundMs: options.reconnectMs ?? this.config.redisOutageMs,
      ...(options.onDisconnect ? { onOutage: options.onDisconnect } : {}),
      ...(options.onReconnect ? { onRecovered: options.onReconnect } : {}),
    });
    const pause = (ms: number): Promise<void> => signal.sleep(ms);
    for (;;) {
      const progress = await rider.run(() => this.progress(sweepId, { eta: true }), pause);
      options.onProgress?.(progress);
      if (progress.done === progress.total) return progress;
      const broken = progress.sizes.find((s) => s.state === 'failed' || s.state === 'cancelled');
      if (broken) {
        throw new SweepFailedError(
          sweepId,
          broken.n,
          broken.state === 'failed'
            ? broken.reason || 'failed'
            : 'its jobs were removed (cancelled)',
        );
      }
      await signal.sleep(options.intervalMs ?? 250);
    }
  }

  /**
   * `wq verify`: every stored N(n, D) of these n is counted again by a second algorithm (on
   * another worker where there is one) and compared. S(n) stays published only when every D
   * agrees; a disagreement withdraws it and keeps both values (see `wq status`). With `repair`,
   * a disagreeing n (and any unit counted twice with two values) is counted afresh by both
   * algorithms and published only if they agree.
   */
  async verify(
    ns: readonly number[],
    options: { repair?: boolean } = {},
  ): Promise<VerifyOutcome[]> {
    await this.ping();
    // Whatever is stored is recounted, including an S(n) that no longer holds (forged, or
    // beside a record that says otherwise): a reader already refuses to show that one.
    const sums = new Set(await this.store.storedSizes(ns));
    const conflicts = await this.store.disagreements();
    const repaired = new Set<number>();
    if (options.repair) {
      for (const c of conflicts.filter((d) => ns.includes(d.n))) {
        if ((await this.store.forgetDisagreements(c.n, c.depth)) > 0) repaired.add(c.n);
      }
    }
    // An n whose S(n) an earlier recount withdrew: --repair counts it afresh, else it is
    // reported as it stands.
    const withdrawn = new Map<number, Mismatch>();
    for (const n of ns.filter((k) => !sums.has(k))) {
      const mismatch = await this.store.mismatch(n);
      if (mismatch) withdrawn.set(n, mismatch);
    }
    if (options.repair) for (const n of withdrawn.keys()) repaired.add(n);
    const stored = ns.filter((n) => sums.has(n) || repaired.has(n));
    const outcomes = new Map<number, VerifyOutcome>();
    for (const n of ns) {
      if (stored.includes(n)) continue;
      const mismatch = withdrawn.get(n);
      outcomes.set(n, mismatch ? { n, outcome: 'disagrees', mismatch } : { n, outcome: 'missing' });
    }
    if (stored.length === 0) return ns.map((n) => outcomes.get(n) ?? { n, outcome: 'missing' });
    for (const n of stored) await this.store.forgetChecks(n);
    const submission = await this.submit(stored, { audit: true });
    const id = submission.sweep.id;
    let settled = await this.settleRecount(id, stored);
    const mismatches = new Map<number, Mismatch>();
    for (const [n, result] of settled) if (result.mismatch) mismatches.set(n, result.mismatch);
    const failed = [...settled].filter(([, r]) => r.S === undefined).map(([n]) => n);
    if (options.repair && failed.length > 0) {
      // The disagreeing counts were forgotten when the recount failed: count both afresh.
      await this.retry(id);
      settled = await this.settleRecount(id, stored);
      for (const n of failed) repaired.add(n);
    }
    for (const [n, result] of settled) {
      const mismatch = mismatches.get(n) ?? withdrawn.get(n);
      const unit = conflicts.filter((c) => c.n === n);
      const evidence = {
        ...(mismatch ? { mismatch } : {}),
        ...(unit.length ? { disagreements: unit } : {}),
      };
      if (result.S !== undefined) {
        const outcome = repaired.has(n) ? 'repaired' : unit.length ? 'disagrees' : 'verified';
        outcomes.set(n, { n, outcome, S: result.S, ...evidence });
      } else {
        outcomes.set(n, {
          n,
          outcome: 'disagrees',
          ...evidence,
          ...(result.reason ? { reason: result.reason } : {}),
        });
      }
    }
    return ns.map((n) => outcomes.get(n) ?? { n, outcome: 'missing' });
  }

  /**
   * Waits until this sweep has settled every n of a recount: S(n) published again by it (its
   * record names the sweep), or a disagreement recorded by it, or its sum job failed. A stored
   * S(n) alone says nothing here: it was there before the recount began.
   */
  private async settleRecount(
    sweepId: string,
    ns: readonly number[],
    intervalMs = 250,
  ): Promise<Map<number, { S?: string; mismatch?: Mismatch; reason?: string }>> {
    const settled = new Map<number, { S?: string; mismatch?: Mismatch; reason?: string }>();
    for (;;) {
      for (const n of ns.filter((k) => !settled.has(k))) {
        const record = await this.store.record(n);
        if (record?.sweepId === sweepId) {
          settled.set(n, { S: record.S });
          continue;
        }
        const mismatch = await this.store.mismatch(n);
        if (mismatch?.sweepId === sweepId) {
          settled.set(n, { mismatch });
          continue;
        }
        const job = await this.queues.aggregate.getJob(sumJobId(n));
        const state = job ? await job.getState() : 'unknown';
        if (state === 'failed') settled.set(n, { reason: await this.rootCause(job) });
        if (state === 'unknown') {
          throw new SweepFailedError(sweepId, n, 'its jobs were removed (cancelled)');
        }
      }
      if (settled.size === ns.length) return settled;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  async results(ns: readonly number[]): Promise<SizeResults[]> {
    const sums = await this.store.sums(ns);
    const results: SizeResults[] = [];
    for (const n of ns) {
      const depths = await this.store.depths(n);
      const N = Array.from({ length: n }, (_, d) => depths.get(d)?.value);
      const S = sums.get(n);
      results.push(S === undefined ? { n, N } : { n, S, N });
    }
    return results;
  }

  async status(): Promise<StatusReport> {
    const [sweeps, calibration, disagreements, workers, jobs] = await Promise.all([
      this.registry
        .list()
        .then((list) => this.progressReader.read(list, { timing: true, eta: true }))
        .then((read) => Promise.all(read.map((p) => this.withUnfit(p)))),
      this.store.calibration(),
      this.store.disagreements(),
      this.registry.liveWorkers(),
      this.jobCounts(),
    ]);
    return {
      sweeps,
      calibration,
      disagreements,
      workers,
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
    const sweep = await this.registry.get(sweepId);
    await this.registry.save({ ...sweep, cancelledAt: new Date().toISOString() });
    return this.removeSizes(sweep, await this.unfinished(sweep), options.timeoutMs ?? 60_000);
  }

  /** Re-runs what a sweep is missing: failed or cancelled n are removed and planned again. */
  async retry(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<{ readonly added: number }> {
    const progress = await this.progressReader.sweep(sweepId);
    const broken = progress.sizes.filter((s) => s.state === 'failed').map((s) => s.n);
    return this.resubmit(progress.sweep, broken, options.timeoutMs, 'not running');
  }

  /** The n of a sweep without a stored result (S(n), or Q(n) for a classic sweep). */
  private async unfinished(sweep: SweepRecord): Promise<number[]> {
    const stored =
      sweep.problem === 'classic'
        ? await this.classic.results(sweep.ns)
        : await this.store.sums(sweep.ns);
    return sweep.ns.filter((n) => !stored.has(n));
  }

  /**
   * Takes `ns` of a sweep out of the queues and submits the sweep again under its id (stored
   * results are skipped); an InvalidInputError when some of them are still running.
   */
  private async resubmit(
    sweep: SweepRecord,
    ns: readonly number[],
    timeoutMs = 60_000,
    expected: string,
  ): Promise<SweepSubmission | ClassicSubmission> {
    const { left } = await this.removeSizes(sweep, ns, timeoutMs);
    if (left.length) {
      throw new InvalidInputError(
        'sweep',
        sweep.id,
        `a sweep whose n = ${left.join(', ')} are ${expected}`,
      );
    }
    const verify = sweep.verify ? { verify: true } : {};
    if (sweep.problem === 'classic') {
      const sample = sweep.sample === undefined ? {} : { sample: sweep.sample };
      return this.submitClassic(sweep.ns, { sweepId: sweep.id, ...verify, ...sample });
    }
    return this.submit(sweep.ns, {
      targetSeconds: sweep.targetSeconds,
      sweepId: sweep.id,
      ...verify,
      // Its size was accepted (or confirmed with --allow-huge) when it was first submitted.
      allowHuge: true,
    });
  }

  /**
   * `wq replan`: the unfinished n of a sweep are taken out of the queues (running units finish
   * first, within `timeoutMs`) and planned again for the workers live now, so units planned
   * for a worker that has gone are split or counted otherwise. Stored results are kept and
   * skipped.
   */
  async replan(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<SweepSubmission | ClassicSubmission> {
    const sweep = await this.registry.get(sweepId);
    const pending = await this.unfinished(sweep);
    return this.resubmit(
      sweep,
      pending,
      options.timeoutMs,
      'taken out of the queues (still running)',
    );
  }

  /** Removes the sum jobs of `ns` of a sweep with their flows (running units finish first). */
  private async removeSizes(
    sweep: SweepRecord,
    ns: readonly number[],
    timeoutMs: number,
  ): Promise<{ removed: number[]; left: number[] }> {
    const sumId = sweep.problem === 'classic' ? classicSumJobId : sumJobId;
    const deadline = Date.now() + timeoutMs;
    let left = [...ns];
    const removed: number[] = [];
    for (;;) {
      const still: number[] = [];
      for (const n of left) {
        const id = sumId(n);
        if ((await this.queues.aggregate.getJobState(id)) === 'unknown') {
          removed.push(n);
        } else if ((await this.queues.aggregate.remove(id, { removeChildren: true })) === 1) {
          removed.push(n);
        } else {
          // Something below is running: take away what is still waiting so it ends soon.
          await this.removeWaitingChildren(QUEUE_NAMES.aggregate, id);
          still.push(n);
        }
      }
      left = still;
      if (left.length === 0 || Date.now() >= deadline) return { removed, left };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** A parent failed by its child says only "child <key> failed": follow it to the reason. */
  private async rootCause(job: Job | undefined): Promise<string> {
    let reason = job?.failedReason ?? 'failed';
    for (let hops = 0; hops < 3; hops++) {
      const match = /child (\S+) failed/.exec(reason);
      if (!match?.[1]) break;
      const parts = match[1].split(':');
      const queue = this.queueNamed(parts[parts.length - 2] ?? '');
      const child = await queue.getJob(parts[parts.length - 1] ?? '');
      if (!child?.failedReason) break;
      reason = `${child.id}: ${child.failedReason}`;
    }
    return reason;
  }

  /** Adds the flow of every planned n that is neither stored nor queued; notes each outcome. */
  private async addFlows(
    sweepId: string,
    plans: readonly PlannedSize[],
    sizes: { n: number; outcome: 'stored' | 'queued' | 'added'; jobs: number }[],
    audit: boolean,
    /** Told each n once it is in Redis (added, found queued, or stored). */
    onQueued: (n: number) => Promise<void>,
  ): Promise<void> {
    // Two flows in flight at most: Redis runs one flow's transaction while this process builds
    // the next one's (more would only hold more of them in memory at once).
    let previous: Promise<unknown> = Promise.resolve();
    let inFlight: number | undefined;
    const landed = async (): Promise<void> => {
      await previous;
      if (inFlight !== undefined) await onQueued(inFlight);
      inFlight = undefined;
    };
    // Whether an n is queued, and adding it if not, is one step for all submitters at once. The
    // locks are taken as the n come, in ascending n (two submitters never wait for each other
    // in a circle), and held to the end.
    const locks = new SubmitLock(this.redis, this.store.keys, sweepId);
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const planned of [...plans].sort((a, b) => a.n - b.n)) {
        await this.addFlow(
          planned,
          sizes,
          audit,
          { locks, releases, onQueued, landed },
          async (adding) => {
            await landed();
            previous = adding;
            inFlight = planned.n;
          },
        );
      }
      await landed();
    } finally {
      await Promise.all(releases.map((release) => release()));
    }
  }

  /** One n of `addFlows`; `adding` is given the add when it starts one. */
  private async addFlow(
    planned: PlannedSize,
    sizes: { n: number; outcome: 'stored' | 'queued' | 'added'; jobs: number }[],
    audit: boolean,
    held: {
      readonly locks: SubmitLock;
      readonly releases: (() => Promise<void>)[];
      readonly onQueued: (n: number) => Promise<void>;
      /** Waits for the flow in flight and records it. */
      readonly landed: () => Promise<void>;
    },
    adding: (add: Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    const { n } = planned;
    const handled = (outcome: 'stored' | 'queued'): Promise<void> => {
      sizes.push({ n, outcome, jobs: 0 });
      return held.onQueued(n);
    };
    if (!planned.flow) return handled('stored');
    // Already in the queues (a retry after an interrupted submission finds most n so): nothing
    // to add, so no lock to wait for (that of a submitter that died lapses only after a minute).
    if (await this.isQueued(sumJobId(n))) return handled('queued');
    let release = await held.locks.tryAcquire(n);
    if (release === undefined) {
      // Another submitter holds n: what is in flight lands (and is recorded) before the wait.
      await held.landed();
      release = await held.locks.acquire([n]);
    }
    held.releases.push(release);
    // A flow whose root exists would add its children a second time (BullMQ adds children
    // of a duplicate parent), so an n already in the queues is left alone. A finished root
    // without a stored S(n) (deleted by hand, withdrawn by a recount, or failed) is stale:
    // it goes, with what is left of its flow, and the n is planned afresh.
    // Planned before this submitter held the lock: another one may have finished n since
    // (an audit recounts a stored n on purpose).
    if (!audit && (await this.store.sums([n])).has(n)) return handled('stored');
    const state = await this.queues.aggregate.getJobState(sumJobId(n));
    if (state !== 'unknown' && !(await this.removeIfFinished(sumJobId(n), state))) {
      return handled('queued');
    }
    await this.removeFinishedJobs(planned.flow);
    await this.queues.count.register(flowQueues(planned.flow));
    const add = this.flows.add(planned.flow);
    // Awaited once the next n has started; until then its failure is not yet unhandled.
    add.catch(() => undefined);
    await adding(add);
    sizes.push({ n, outcome: 'added', jobs: planned.jobs });
  }

  /**
   * Enqueues Q(n) and its classes for every n not stored (or, with `verify`, not yet checked)
   * and not queued: one flow per n on the same queues as the weak sweeps (classic-jobs.ts).
   */
  async submitClassic(
    ns: readonly number[],
    options: { sweepId?: string; verify?: boolean; sample?: number } = {},
  ): Promise<ClassicSubmission> {
    await this.ping();
    const sweepId =
      options.sweepId ?? `c-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
    const plans: PlannedClassic[] = [];
    // Units are batched into jobs for the slots there are (one worker like this one when none
    // is live), so small n do not pay a job's round trips per unit of milliseconds.
    const cluster = await this.cluster();
    const slots = cluster.workers * cluster.slots;
    for (const n of ns) {
      plans.push(
        await planClassic(n, this.classic, {
          sweepId,
          attempts: this.config.attempts,
          slots,
          ...(options.verify ? { verify: true } : {}),
          ...(options.sample !== undefined ? { sample: options.sample } : {}),
        }),
      );
    }
    const sizes: ClassicSubmission['sizes'][number][] = [];
    for (const planned of plans) {
      const { n, units } = planned;
      if (!planned.flow) {
        sizes.push({ n, outcome: 'stored', jobs: 0, units });
        continue;
      }
      // As for S(n): a live root is left alone, a finished one (failed, or its result
      // withdrawn) goes with what is left of its flow before the n is added afresh.
      const id = classicSumJobId(n);
      const state = await this.queues.aggregate.getJobState(id);
      if (state !== 'unknown' && !(await this.removeIfFinished(id, state))) {
        sizes.push({ n, outcome: 'queued', jobs: 0, units });
        continue;
      }
      await this.removeFinishedJobs(planned.flow);
      await this.flows.add(planned.flow);
      sizes.push({ n, outcome: 'added', jobs: planned.jobs, units });
    }
    // Recorded as a weak sweep is, so wq status, cancel, retry and the dashboard follow it.
    const existing = options.sweepId ? await this.registry.find(options.sweepId) : undefined;
    await this.registry.save({
      id: sweepId,
      ns: [...ns],
      createdAt: existing?.createdAt ?? new Date().toISOString(),
      targetSeconds: this.config.targetSeconds,
      units: Object.fromEntries(plans.map((p) => [String(p.n), p.units])),
      problem: 'classic',
      ...(options.verify ? { verify: true } : {}),
      ...(options.sample !== undefined ? { sample: options.sample } : {}),
    });
    return {
      sweepId,
      problem: 'classic',
      added: sizes.reduce((t, s) => t + s.jobs, 0),
      sizes,
    };
  }

  /** Stored classic results of `ns` (all stored n when empty). */
  async classicResults(ns: readonly number[] = []): Promise<Map<number, ClassicResult>> {
    return this.classic.results(ns);
  }

  /**
   * Waits until every n of `ns` has its classic result; rejects with the failed job's reason
   * when a classic sum fails (its units failed for good, or second counts disagreed).
   */
  async waitForClassic(
    ns: readonly number[],
    options: {
      sweepId?: string;
      timeoutMs?: number;
      pollMs?: number;
      onTick?: (done: number, unitsDone: number, units: number) => void;
    } = {},
  ): Promise<Map<number, ClassicResult>> {
    return this.withAggregateSignal((signal) => this.followClassic(ns, options, signal));
  }

  private async followClassic(
    ns: readonly number[],
    options: Parameters<PipelineClient['waitForClassic']>[1] & object,
    signal: AggregateSignal,
  ): Promise<Map<number, ClassicResult>> {
    const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    for (;;) {
      const results = await this.classic.results(ns);
      if (ns.every((n) => results.has(n))) return results;
      for (const n of ns) {
        if (results.has(n)) continue;
        const job = await this.queues.aggregate.getJob(classicSumJobId(n));
        if (job && (await job.getState()) === 'failed') {
          throw new SweepFailedError(options.sweepId ?? 'classic', n, await this.rootCause(job));
        }
      }
      if (options.onTick) {
        let unitsDone = 0;
        let units = 0;
        for (const n of ns) {
          const job = await this.queues.aggregate.getJob(classicSumJobId(n));
          const listed = (job?.data as { unitKeys?: unknown[] } | undefined)?.unitKeys?.length;
          units += listed ?? 0;
          unitsDone += results.has(n) ? (listed ?? 0) : (await this.classic.units(n)).size;
        }
        options.onTick(results.size, unitsDone, units);
      }
      if (Date.now() > deadline) {
        const missing = ns.find((n) => !results.has(n)) ?? 0;
        throw new SweepFailedError(options.sweepId ?? 'classic', missing, 'timed out');
      }
      await signal.sleep(options.pollMs ?? 250);
    }
  }

  /** True when this root job is waiting, running or waiting for its children (not finished). */
  private async isQueued(id: string): Promise<boolean> {
    const state = await this.queues.aggregate.getJobState(id);
    return state !== 'unknown' && state !== 'completed' && state !== 'failed';
  }

  /** Removes a finished (completed or failed) root with its children; true when it is gone. */
  private async removeIfFinished(id: string, state: string): Promise<boolean> {
    if (state !== 'completed' && state !== 'failed') return false;
    return (await this.queues.aggregate.remove(id, { removeChildren: true })) === 1;
  }

  /**
   * Job ids are deterministic, and BullMQ ignores a job whose id exists: a finished job left
   * from an earlier flow (kept by the retention policy) would stand in for a new one that never
   * runs. One pipelined read finds them; the rare ones found are removed.
   */
  private async removeFinishedJobs(flow: FlowJob): Promise<void> {
    const jobs: { queue: string; id: string }[] = [];
    const walk = (node: FlowJob | FlowJobNode): void => {
      if (node.opts?.jobId) jobs.push({ queue: node.queueName, id: node.opts.jobId });
      for (const child of node.children ?? []) walk(child);
    };
    walk(flow);
    const read = this.redis.pipeline();
    for (const { queue, id } of jobs)
      read.hget(`${this.config.prefix}:${queue}:${id}`, 'finishedOn');
    const finished = (await read.exec()) ?? [];
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i];
      if (!job || finished[i]?.[1] == null) continue;
      const queue = this.queueNamed(job.queue);
      await queue.remove(job.id, { removeChildren: true });
    }
  }

  private async removeWaitingChildren(queueName: string, id: string): Promise<void> {
    const queue = this.queueNamed(queueName);
    const job = await queue.getJob(id);
    if (!job) return;
    const { unprocessed = [] } = await job.getDependencies({ unprocessed: { count: 10_000 } });
    for (const key of unprocessed) {
      // Job keys are `<prefix>:<queue>:<id>`; ids and queue names contain no ':'.
      const parts = key.split(':');
      const childId = parts[parts.length - 1] ?? '';
      const childQueue = parts[parts.length - 2] ?? '';
      const child = this.queueNamed(childQueue);
      if ((await child.remove(childId, { removeChildren: true })) === 0) {
        await this.removeWaitingChildren(childQueue, childId);
      }
    }
  }

  /** `aggregate`, or the count queue of this name (`count` or a class queue). */
  private queueNamed(name: string): Queue {
    return isCountQueue(name) ? this.queues.count.get(name) : this.queues.aggregate;
  }

  async close(): Promise<void> {
    const closed = (async () => {
      await Promise.allSettled([
        this.flows.close(),
        this.queues.count.close(),
        this.queues.aggregate.close(),
      ]);
      await this.redis.quit().catch(() => undefined);
    })();
    // With Redis away a graceful close waits on reconnects: a client that gave up on Redis
    // (or a dashboard stopped during an outage) must still end promptly.
    if (!(await fulfilsWithin(closed, CLOSE_MS))) {
      this.redis.disconnect();
      closed.catch(() => undefined);
    }
  }
}

/** The queue names of a flow's jobs (its class queues are listed before it is added). */
function flowQueues(flow: FlowJob | FlowJobNode, into: Set<string> = new Set()): Set<string> {
  into.add(flow.queueName);
  for (const child of flow.children ?? []) flowQueues(child, into);
  return into;
}
