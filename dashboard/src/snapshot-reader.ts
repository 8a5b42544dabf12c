// Builds a Snapshot from Redis: the sweep registry, the result store and the queues. One read
// costs a fixed number of round trips per n (pipelined), whatever the number of open pages.
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  depthJobId,
  type DepthResult,
  parseDepthJobData,
  parseUnitJobData,
  parseUnitResult,
  sumJobId,
} from '@weak-queens/shared/contracts';
import { planUnits } from '@weak-queens/shared/kernel';
import {
  type CountQueues,
  ResultStore,
  type SweepRecord,
  type UnfitUnit,
  SweepRegistry,
  type WorkerInfo,
} from '@weak-queens/shared/client';
import type {
  DepthStatus,
  DepthView,
  SizeView,
  Snapshot,
  SweepStatus,
  SweepView,
  WorkerView,
} from './snapshot.js';

export interface SnapshotQueues {
  /** `count` and the memory-class count queues in use. */
  readonly count: CountQueues;
  readonly aggregate: Queue;
}

/** Job ids the planner gives: `n14-d9` (a whole (n, D)) and `n14-d9-u3` (one unit of it). */
const JOB_ID = /^n(\d+)-d(\d+)(?:-p[0-9a-f]+-u(\d+))?$/;

/** Bounds on what one poll reads, so a queue with many failures cannot slow it down. */
const MAX_ACTIVE = 1000;
const MAX_FAILED = 500;

interface RunningUnit {
  readonly startedAt: number;
  /** 0..100 from the worker's progress reports. */
  readonly progress: number;
}

/** What one poll knows about the queues, by (n, D). */
interface QueueState {
  readonly running: Map<string, RunningUnit[]>;
  /** Ids of the count jobs active right now (heartbeats can be a few seconds old). */
  readonly activeIds: Set<string>;
  readonly failed: Map<string, string>;
}

interface SizeData {
  readonly S?: string;
  readonly depths: Map<number, DepthResult>;
  readonly unitCounts: number[];
  /** Seconds of the stored units of each unfinished D (0 where none are stored). */
  readonly unitSeconds: number[];
  /** The plan of each unfinished D, read from its job in the queues (undefined: no job). */
  readonly plans: (DepthPlan | undefined)[];
  readonly sumState: string;
}

/** What the queues say an unfinished (n, D) consists of. */
interface DepthPlan {
  readonly units: number;
  readonly algorithm: string;
  /** The planner's single-core estimate (known for an unsplit D only). */
  readonly estimateSeconds: number | null;
}

export class SnapshotReader {
  private readonly store: ResultStore;
  private readonly registry: SweepRegistry;
  /** planUnits is deterministic in (n, D, target) and takes milliseconds: plan each once. */
  private readonly plans = new Map<string, DepthPlan>();

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly queues: SnapshotQueues,
    /** The units of these n that fit no live worker (PipelineClient.unfitUnits). */
    private readonly unfitUnits: (ns: readonly number[]) => Promise<UnfitUnit[]> = () =>
      Promise.resolve([]),
  ) {
    this.store = new ResultStore(redis, prefix);
    this.registry = new SweepRegistry(redis, prefix);
  }

  async read(options: { limit?: number } = {}): Promise<Snapshot> {
    const now = Date.now();
    const records = (await this.registry.list()).slice(-(options.limit ?? 20)).reverse();
    const [queueState, workers, counts, disagreements] = await Promise.all([
      this.queueState(),
      this.registry.liveWorkers(),
      this.counts(),
      this.store.disagreements(),
    ]);
    const ns = [...new Set(records.flatMap((r) => r.ns))];
    const sizes = await this.sizeData(ns);
    const doneAt = await this.doneTimes(records);
    const unfit = await this.unfitUnits(ns.filter((n) => sizes.get(n)?.S === undefined));
    return {
      generatedAt: new Date(now).toISOString(),
      sweeps: records.map((r) =>
        this.sweepView(r, sizes, queueState, doneAt.get(r.id), now, unfit),
      ),
      workers: workers.map((w) => workerView(w, queueState.activeIds)),
      queues: counts,
      disagreements: disagreements.map(({ n, depth, unit, stored, counted }) => ({
        n,
        depth,
        unit,
        stored,
        counted,
      })),
    };
  }

  /** One sweep in full, or undefined when no sweep has this id. */
  async sweep(id: string): Promise<SweepView | undefined> {
    const json = await this.redis.get(this.registry.keys.sweep(id));
    if (json === null) return undefined;
    const record = JSON.parse(json) as SweepRecord;
    const now = Date.now();
    const queueState = await this.queueState();
    const sizes = await this.sizeData(record.ns);
    const doneAt = await this.doneTimes([record]);
    const unfit = await this.unfitUnits(record.ns.filter((n) => sizes.get(n)?.S === undefined));
    return this.sweepView(record, sizes, queueState, doneAt.get(id), now, unfit);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.redis.exists(this.registry.keys.sweep(id))) === 1;
  }

  private async counts(): Promise<Record<string, Record<string, number>>> {
    const queues = [...(await this.queues.count.all()), this.queues.aggregate];
    const counts = await Promise.all(queues.map((q) => q.getJobCounts()));
    return Object.fromEntries(queues.map((q, i) => [q.name, counts[i] ?? {}]));
  }

  private async queueState(): Promise<QueueState> {
    const countQueues = await this.queues.count.all();
    const [actives, failedCounts, failedAggregate] = await Promise.all([
      Promise.all(countQueues.map((q) => q.getJobs(['active'], 0, MAX_ACTIVE - 1))),
      Promise.all(countQueues.map((q) => q.getJobs(['failed'], 0, MAX_FAILED - 1))),
      this.queues.aggregate.getJobs(['failed'], 0, MAX_FAILED - 1),
    ]);
    const active = actives.flat();
    const failedCount = failedCounts.flat();
    const running = new Map<string, RunningUnit[]>();
    for (const job of active) {
      const key = depthKeyOf(job);
      if (!key) continue;
      const list = running.get(key) ?? [];
      list.push({
        startedAt: job.processedOn ?? Date.now(),
        progress: typeof job.progress === 'number' ? job.progress : 0,
      });
      running.set(key, list);
    }
    const failed = new Map<string, string>();
    // Units first: their reasons say more than the "child … failed" of the sums above them.
    for (const job of [...failedCount, ...failedAggregate]) {
      const key = depthKeyOf(job);
      if (key && !failed.has(key)) failed.set(key, `${job.id}: ${job.failedReason}`);
    }
    return { running, failed, activeIds: new Set(active.map((job) => String(job.id))) };
  }

  private async sizeData(ns: readonly number[]): Promise<Map<number, SizeData>> {
    const sums = await this.store.sums(ns);
    const pipeline = this.redis.pipeline();
    for (const n of ns) {
      pipeline.hgetall(this.store.keys.depths(n));
      for (let d = 0; d < n; d++) pipeline.hlen(this.store.keys.units(n, d));
    }
    const replies = (await pipeline.exec()) ?? [];
    const states = await Promise.all(
      ns.map((n) =>
        sums.has(n) ? Promise.resolve('completed') : this.queues.aggregate.getJobState(sumJobId(n)),
      ),
    );
    const data = new Map<number, SizeData>();
    let at = 0;
    ns.forEach((n, i) => {
      const [, raw] = replies[at++] ?? [];
      const depths = new Map<number, DepthResult>();
      for (const json of Object.values((raw ?? {}) as Record<string, string>)) {
        const result = JSON.parse(json) as DepthResult;
        if (result.n === n) depths.set(result.depth, result);
      }
      const unitCounts: number[] = [];
      for (let d = 0; d < n; d++) unitCounts.push(Number(replies[at++]?.[1] ?? 0));
      const S = sums.get(n);
      data.set(n, {
        ...(S === undefined ? {} : { S }),
        depths,
        unitCounts,
        unitSeconds: unitCounts.map(() => 0),
        plans: unitCounts.map(() => undefined),
        sumState: states[i] ?? 'unknown',
      });
    });
    // Per unfinished (n, D): its job (the depth sum when split, else the unit itself) says how
    // many units it has; its stored units say how much time went into it so far.
    const wanted: [SizeData, number, 'plan' | 'seconds'][] = [];
    // An unsplit (n, D) is one unit, in `count` or in the queue of its memory class.
    const countQueues = await this.queues.count.all();
    const reads = this.redis.pipeline();
    for (const [n, size] of data) {
      if (size.S !== undefined) continue;
      for (let d = 0; d < n; d++) {
        if (size.depths.has(d)) continue;
        const id = depthJobId(n, d);
        wanted.push([size, d, 'plan']);
        reads.hget(this.queues.aggregate.toKey(id), 'data');
        for (const queue of countQueues) reads.hget(queue.toKey(id), 'data');
        if ((size.unitCounts[d] ?? 0) > 0) {
          wanted.push([size, d, 'seconds']);
          reads.hvals(this.store.keys.units(n, d));
        }
      }
    }
    if (wanted.length === 0) return data;
    const values = (await reads.exec()) ?? [];
    let next = 0;
    for (const [size, d, what] of wanted) {
      if (what === 'seconds') {
        const jsons = (values[next++]?.[1] ?? []) as string[];
        size.unitSeconds[d] = jsons.reduce(
          (t, json) => t + parseUnitResult(JSON.parse(json)).seconds,
          0,
        );
        continue;
      }
      const depthJob = values[next++]?.[1] as string | null;
      const unitJobs = countQueues.map(() => (values[next++]?.[1] ?? null) as string | null);
      const unitJob = unitJobs.find((job) => job !== null) ?? null;
      size.plans[d] = depthPlan(depthJob, unitJob);
    }
    return data;
  }

  /** When each sweep's last n was stored (only for sweeps that are complete). */
  private async doneTimes(records: readonly SweepRecord[]): Promise<Map<string, number>> {
    const pipeline = this.redis.pipeline();
    for (const r of records) pipeline.hvals(this.store.keys.sweepDone(r.id));
    const replies = (await pipeline.exec()) ?? [];
    const times = new Map<string, number>();
    records.forEach((r, i) => {
      const values = (replies[i]?.[1] ?? []) as string[];
      if (values.length >= r.ns.length && values.length > 0) {
        times.set(r.id, Math.max(...values.map((v) => Date.parse(v))));
      }
    });
    return times;
  }

  private sweepView(
    record: SweepRecord,
    sizes: Map<number, SizeData>,
    queues: QueueState,
    doneAt: number | undefined,
    now: number,
    unfit: readonly UnfitUnit[],
  ): SweepView {
    const views = record.ns.map((n) => this.sizeView(n, record, sizes.get(n), queues, now));
    const done = views.filter((s) => s.status === 'done').length;
    const status: SweepStatus =
      done === views.length
        ? 'done'
        : views.some((s) => s.status === 'failed')
          ? 'failed'
          : views.some((s) => s.status === 'cancelled')
            ? 'cancelled'
            : views.some((s) => s.status === 'active')
              ? 'active'
              : 'waiting';
    const created = Date.parse(record.createdAt);
    const elapsedSeconds = Math.max(0, ((doneAt ?? now) - created) / 1000);
    const unitsDone = views.reduce((t, s) => t + s.unitsDone, 0);
    const units = views.reduce((t, s) => t + s.units, 0);
    return {
      id: record.id,
      createdAt: record.createdAt,
      cancelledAt: record.cancelledAt ?? null,
      targetSeconds: record.targetSeconds,
      ns: record.ns,
      status,
      done,
      total: views.length,
      unitsDone,
      units,
      elapsedSeconds,
      // The sweep's own pace so far: units differ in size, so this is a rough guide.
      etaSeconds:
        status === 'active' && unitsDone > 0
          ? (elapsedSeconds * (units - unitsDone)) / unitsDone
          : null,
      sizes: views,
      unfit: unfit
        .filter((u) => record.ns.includes(u.n))
        .map(({ jobId, n, depth, bytes, largestSlotBytes }) => ({
          jobId,
          n,
          depth,
          bytes,
          largestSlotBytes,
        })),
    };
  }

  private sizeView(
    n: number,
    record: SweepRecord,
    data: SizeData | undefined,
    queues: QueueState,
    now: number,
  ): SizeView {
    const depths: DepthView[] = [];
    const removed = data?.S === undefined && (data?.sumState ?? 'unknown') === 'unknown';
    for (let d = 0; d < n; d++) {
      const stored = data?.depths.get(d);
      if (stored) {
        depths.push({
          depth: d,
          status: 'done',
          algorithm: stored.algorithm,
          unitsDone: stored.units,
          units: stored.units,
          seconds: stored.seconds,
          etaSeconds: null,
          value: stored.value,
          reason: null,
        });
        continue;
      }
      const key = `${n}:${d}`;
      const plan = data?.plans[d] ?? this.fallbackPlan(n, d, record.targetSeconds);
      const running = queues.running.get(key) ?? [];
      const unitsDone = data?.unitCounts[d] ?? 0;
      const units = Math.max(plan.units, unitsDone);
      const failed = queues.failed.get(key);
      const runSeconds = running.reduce((t, u) => t + Math.max(0, now - u.startedAt) / 1000, 0);
      const status: DepthStatus = failed
        ? 'failed'
        : running.length
          ? 'active'
          : removed
            ? 'cancelled'
            : unitsDone > 0
              ? 'active'
              : 'waiting';
      const seconds = (data?.unitSeconds[d] ?? 0) + runSeconds;
      // Remaining single-core seconds: from the pace so far (finished units and the progress
      // the running ones report), else from the planner's estimate of an unsplit D.
      const work = unitsDone + running.reduce((t, u) => t + u.progress / 100, 0);
      const left =
        work > 0 && seconds > 0
          ? (seconds * Math.max(0, units - work)) / work
          : plan.estimateSeconds === null
            ? null
            : Math.max(0, plan.estimateSeconds - seconds);
      depths.push({
        depth: d,
        status,
        algorithm: plan.algorithm,
        unitsDone,
        units,
        seconds,
        etaSeconds:
          status === 'active' && left !== null ? left / Math.max(1, running.length) : null,
        value: null,
        reason: failed ?? null,
      });
    }
    const unitsDone = depths.reduce((t, v) => t + v.unitsDone, 0);
    const units = depths.reduce((t, v) => t + v.units, 0);
    const status: DepthStatus =
      data?.S !== undefined
        ? 'done'
        : data?.sumState === 'failed' || depths.some((v) => v.status === 'failed')
          ? 'failed'
          : removed
            ? 'cancelled'
            : depths.some((v) => v.status === 'active' || v.status === 'done')
              ? 'active'
              : 'waiting';
    const reason = status === 'failed' ? (depths.find((v) => v.reason)?.reason ?? 'failed') : null;
    return { n, status, unitsDone, units, S: data?.S ?? null, reason, depths };
  }

  /** For an (n, D) whose jobs are gone (cancelled): what the planner would make of it. */
  private fallbackPlan(n: number, depth: number, targetSeconds: number): DepthPlan {
    const key = `${n}:${depth}:${targetSeconds}`;
    let plan = this.plans.get(key);
    if (!plan) {
      const units = planUnits(n, depth, { targetSeconds });
      plan = {
        units: units.length,
        algorithm: units[0]?.algorithm ?? 'dfs',
        estimateSeconds: null,
      };
      this.plans.set(key, plan);
    }
    return plan;
  }
}

/** Reads the plan of an unfinished (n, D) from the data of its depth job or its only unit. */
function depthPlan(depthJob: string | null, unitJob: string | null): DepthPlan | undefined {
  try {
    if (depthJob !== null) {
      const data = parseDepthJobData(JSON.parse(depthJob));
      return { units: data.unitKeys.length, algorithm: data.algorithm, estimateSeconds: null };
    }
    if (unitJob !== null) {
      const data = parseUnitJobData(JSON.parse(unitJob));
      return { units: 1, algorithm: data.algorithm, estimateSeconds: data.estimateSeconds };
    }
  } catch {
    // A payload the workers would refuse too: shown with the planner's view instead.
  }
  return undefined;
}

function depthKeyOf(job: Job): string | undefined {
  const match = JOB_ID.exec(String(job.id));
  return match ? `${match[1]}:${match[2]}` : undefined;
}

function workerView(info: WorkerInfo, activeIds: Set<string>): WorkerView {
  const started = Date.parse(info.startedAt);
  const seen = info.heartbeatAt === undefined ? NaN : Date.parse(info.heartbeatAt);
  const span = (seen - started) * info.concurrency;
  const busyShare =
    info.busyMs !== undefined && span > 0 ? Math.min(1, Math.max(0, info.busyMs / span)) : null;
  return {
    id: info.id,
    host: info.host,
    pid: info.pid,
    concurrency: info.concurrency,
    memoryBytes: info.memoryBytes ?? null,
    slotBytes: info.slotBytes ?? null,
    version: info.version ?? null,
    startedAt: info.startedAt,
    lastSeenAt: info.heartbeatAt ?? null,
    current: info.active.filter((id) => activeIds.has(id)),
    jobsDone: info.jobsDone ?? null,
    busyShare,
  };
}
