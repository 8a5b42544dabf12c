// Watching sweeps: their progress (with the units no live worker can take, and the n a
// submission has not queued), and waiting for them to finish, woken by finished sums and riding
// out Redis restarts.
import { countQueueClass, type SweepRecord, type UnitJobData } from '../contracts/index.js';
import type { Problem } from './problems/problem.js';
import { problemOf } from './problems/index.js';
import { AggregateSignal } from './aggregate-signal.js';
import type { FlowCleanup } from './flow-cleanup.js';
import { OutageRider } from './outage-rider.js';
import type { PipelineParts } from './pipeline-parts.js';
import { SweepFailedError, SweepGoneError } from './errors.js';
import type { ProgressReadOptions, SweepProgress, UnfitUnit } from './sweep-progress.js';
import type { SweepProgressReader } from './sweep-progress-reader.js';
import { advertisedMemory } from './unit-routing.js';

export class SweepWatcher {
  constructor(
    private readonly parts: PipelineParts,
    private readonly cleanup: FlowCleanup,
    private readonly progressReader: () => SweepProgressReader,
  ) {}

  /**
   * The units of these n that wait in a class queue no live worker consumes: their memory
   * class is above every live worker's slot. Read only when such a queue exists.
   */
  async unfitUnits(ns: readonly number[]): Promise<UnfitUnit[]> {
    if (ns.length === 0) return [];
    const names = await this.parts.queues.count.names();
    if (names.length === 1) return [];
    const live = await this.parts.registry.liveWorkers();
    const largestSlotBytes = live.length
      ? Math.max(...live.map((w) => advertisedMemory(w).slotMemoryBytes))
      : 0;
    const unfit: UnfitUnit[] = [];
    for (const name of names) {
      if ((countQueueClass(name) ?? 0) <= largestSlotBytes) continue;
      const queue = this.parts.queues.count.get(name);
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

  async progress(sweepId: string, options: ProgressReadOptions = {}): Promise<SweepProgress> {
    return this.withUnfit(await this.progressReader().sweep(sweepId, options));
  }

  /** Names, on each unfinished n, its units that wait for memory no live worker has. */
  async withUnfit(read: SweepProgress): Promise<SweepProgress> {
    // And the n an unfinished (or interrupted) submission has not queued.
    const notQueued = await this.parts.registry.notQueued(read.sweep, read.sizes);
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
   * naming it and the reason, and SweepGoneError when the sweep's own record is gone (a sweep
   * is followed by whoever submitted it, so a record missing was deleted, or Redis flushed). A
   * lost connection (Redis restarting) is waited out for up to `reconnectMs` (default
   * WQ_REDIS_OUTAGE_MS): the sweep goes on without us, so we just poll again; past it, one
   * RedisUnavailableError.
   */
  async waitFor(
    sweepId: string,
    options: {
      onProgress?: (p: SweepProgress) => void;
      /** Once per Redis outage, when it starts. */
      onDisconnect?: (err: Error) => void;
      /** Once per Redis outage, when Redis answers again. */
      onReconnect?: (downMs: number) => void;
      /**
       * Once, when the sweep is unfinished and no worker has been live for `noWorkerMs`: the
       * wait goes on (a worker started later takes the jobs).
       */
      onNoLiveWorker?: () => void;
      /** Default NO_WORKER_MS. */
      noWorkerMs?: number;
      intervalMs?: number;
      reconnectMs?: number;
    } = {},
  ): Promise<SweepProgress> {
    return this.withAggregateSignal((signal) => this.followSweep(sweepId, options, signal));
  }

  /** Runs a wait with an AggregateSignal to wake it, closed however the wait ends. */
  private async withAggregateSignal<T>(wait: (signal: AggregateSignal) => Promise<T>): Promise<T> {
    const signal = new AggregateSignal(this.parts.config);
    try {
      return await wait(signal);
    } finally {
      await signal.close();
    }
  }

  private async followSweep(
    sweepId: string,
    options: Parameters<SweepWatcher['waitFor']>[1] & object,
    signal: AggregateSignal,
  ): Promise<SweepProgress> {
    const rider = new OutageRider({
      url: this.parts.config.redisUrl,
      boundMs: options.reconnectMs ?? this.parts.config.redisOutageMs,
      ...(options.onDisconnect ? { onOutage: options.onDisconnect } : {}),
      ...(options.onReconnect ? { onRecovered: options.onReconnect } : {}),
    });
    const pause = (ms: number): Promise<void> => signal.sleep(ms);
    const intervalMs = options.intervalMs ?? 250;
    const noWorker = options.onNoLiveWorker
      ? new NoWorkerCheck(this.parts, options.noWorkerMs ?? NO_WORKER_MS, options.onNoLiveWorker)
      : undefined;
    // Whether the last wait ended early because every result was in: if the full read then
    // disagrees, the next wait is a whole interval (no loop of early reads).
    let endedEarly = false;
    // The first full read waits like the next ones, an interval or until every n is in: at the
    // sweep's start it would read each unfinished (n, D)'s plan and units (two commands and
    // their parsing each, 156 for n = 1..12) on the CPU the workers start on, to show 0 %, and a
    // small sweep is over within the interval. A sweep whose results are all stored is read at
    // once. The first read has no ETA (it would be the plan's again); the next ones have it,
    // from the rates of the units done by then.
    const sweep = await rider.run(() => this.followed(sweepId), pause);
    if (!(await this.allStored(sweep))) {
      endedEarly = await this.nextRead(sweep, performance.now(), intervalMs, signal, true);
    }
    for (let reads = 0; ; reads++) {
      const eta = reads > 0;
      const progress = await rider.run(() => this.followedProgress(sweepId, { eta }), pause);
      const readAt = performance.now();
      options.onProgress?.(progress);
      if (progress.done === progress.total) return progress;
      await rider.run(() => noWorker?.check() ?? Promise.resolve(), pause);
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
      endedEarly = await this.nextRead(progress.sweep, readAt, intervalMs, signal, !endedEarly);
    }
  }

  /** The followed sweep's record; its absence means it is gone, not that the id is wrong. */
  private async followed(sweepId: string): Promise<SweepRecord> {
    const sweep = await this.parts.registry.find(sweepId);
    if (sweep === undefined) throw new SweepGoneError(sweepId);
    return sweep;
  }

  /** The followed sweep's progress (see `progress`), or SweepGoneError. */
  private async followedProgress(
    sweepId: string,
    options: ProgressReadOptions,
  ): Promise<SweepProgress> {
    const [read] = await this.progressReader().read([await this.followed(sweepId)], options);
    if (!read) throw new Error(`sweep ${sweepId} was read but not returned`);
    return this.withUnfit(read);
  }

  /**
   * Waits for the next full progress read: an interval after the last one, or sooner once every
   * n has its result. Each finished sum wakes it, but in between it asks only that (one command):
   * a full read is a dozen, and a sweep of small n finishes a sum every few milliseconds, on
   * the cores its workers need. A failed sum is seen at the next full read. True when it ended
   * early; with `early` false it waits the whole interval.
   */
  private async nextRead(
    sweep: SweepRecord,
    readAt: number,
    intervalMs: number,
    signal: AggregateSignal,
    early: boolean,
  ): Promise<boolean> {
    for (;;) {
      const left = intervalMs - (performance.now() - readAt);
      if (left <= 0) return false;
      await signal.sleep(left);
      if (!early || performance.now() - readAt >= intervalMs) continue;
      // Every value there, unchecked: the full read checks them (and one that does not hold
      // makes the next wait a whole interval). Unknown (Redis away) reads in full, where the
      // outage is ridden out and reported.
      if (await this.allStored(sweep)) return true;
    }
  }

  /**
   * Whether every n of the sweep has its result stored, unchecked (one command); unknown
   * (Redis away) counts as stored, so that the full read rides out the outage and reports it.
   */
  private allStored(sweep: SweepRecord): Promise<boolean> {
    return problemOf(sweep)
      .resultsStored(this.parts, sweep.ns)
      .catch(() => true);
  }

  /**
   * Waits until every n of `ns` has its result of `problem`; rejects with the failed job's
   * reason when a sum fails (its units failed for good, or second counts disagreed).
   */
  async waitForResults<Result>(
    problem: Problem<Result>,
    ns: readonly number[],
    options: {
      sweepId?: string;
      timeoutMs?: number;
      pollMs?: number;
      onTick?: (done: number, unitsDone: number, units: number) => void;
    } = {},
  ): Promise<Map<number, Result>> {
    return this.withAggregateSignal((signal) => this.followResults(problem, ns, options, signal));
  }

  private async followResults<Result>(
    problem: Problem<Result>,
    ns: readonly number[],
    options: Parameters<SweepWatcher['waitForResults']>[2] & object,
    signal: AggregateSignal,
  ): Promise<Map<number, Result>> {
    const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
    const sweepId = options.sweepId ?? problem.id;
    for (;;) {
      const results = await problem.results(this.parts, ns);
      if (ns.every((n) => results.has(n))) return results;
      for (const n of ns) {
        if (results.has(n)) continue;
        const job = await this.parts.queues.aggregate.getJob(problem.sumJobId(n));
        if (job && (await job.getState()) === 'failed') {
          throw new SweepFailedError(sweepId, n, await this.cleanup.rootCause(job));
        }
      }
      if (options.onTick) {
        let unitsDone = 0;
        let units = 0;
        for (const n of ns) {
          const job = await this.parts.queues.aggregate.getJob(problem.sumJobId(n));
          const listed = (job?.data as { unitKeys?: unknown[] } | undefined)?.unitKeys?.length;
          units += listed ?? 0;
          unitsDone += results.has(n) ? (listed ?? 0) : await problem.countedUnits(this.parts, n);
        }
        options.onTick(results.size, unitsDone, units);
      }
      if (Date.now() > deadline) {
        const missing = ns.find((n) => !results.has(n)) ?? 0;
        throw new SweepFailedError(sweepId, missing, 'timed out');
      }
      await signal.sleep(options.pollMs ?? 250);
    }
  }
}

/**
 * How long a wait sees no live worker before it says so: longer than a worker's heartbeat
 * interval (5 s), so that a worker back from a Redis outage has heartbeated again by then.
 */
const NO_WORKER_MS = 6000;
/** How often the wait asks whether a worker is live (one command), until it has said so. */
const NO_WORKER_CHECK_MS = 1000;

/**
 * Whether a followed sweep has a worker to run it: says once that none is live when none has been
 * seen for `afterMs` on end, and never asks again once it has said it.
 */
class NoWorkerCheck {
  private nextAt = 0;
  /** When a check first found no live worker, since the last one that found one. */
  private noneSince?: number;
  private said = false;

  constructor(
    private readonly parts: PipelineParts,
    private readonly afterMs: number,
    private readonly say: () => void,
  ) {}

  async check(): Promise<void> {
    const now = performance.now();
    if (this.said || now < this.nextAt) return;
    this.nextAt = now + Math.min(NO_WORKER_CHECK_MS, this.afterMs);
    if ((await this.parts.registry.liveWorkers()).length > 0) {
      this.noneSince = undefined;
      return;
    }
    this.noneSince ??= now;
    if (now - this.noneSince < this.afterMs) return;
    this.said = true;
    this.say();
  }
}
