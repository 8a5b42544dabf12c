// The one reader of sweep progress: `wq status`, `wq sweep --wait`, `npm start` and the
// dashboard's API and live feed all see the same statuses, computed here. A read costs a
// constant few round trips whatever the number of (n, D): one script over the result store, one
// over the queues (sent together), and for the dashboard's per-D view one more over the jobs of
// the unfinished D.
import type { Job, Queue } from 'bullmq';
import type { RedisClient } from './connection.js';
import {
  classicSumJobId,
  depthJobId,
  type DepthResult,
  parseDepthJobData,
  parseUnitJobData,
  QUEUE_NAMES,
  sumJobId,
} from '../contracts/index.js';
import { planUnits } from '../kernel/plan.js';
import { remainingTime, type StratumProgress } from './run-rates.js';
import type { ClassicResultStore, StoredClassicSize } from './classic-result-store.js';
import type { ResultStore, StoredSize } from './result-store.js';
import type { NotQueued, SweepRecord, SweepRegistry } from './sweep-registry.js';

/**
 * What an n, an (n, D) or a whole sweep is doing. `queued`: nothing of it counted yet;
 * `running`: some of it counted or being counted; `done`: stored; `failed`: a job failed (the
 * reason says which) or S(n) was withdrawn; `cancelled`: its jobs were removed before it finished.
 */
export type ProgressStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface DepthProgress {
  readonly depth: number;
  readonly status: ProgressStatus;
  readonly algorithm: string;
  readonly unitsDone: number;
  readonly units: number;
  /** Single-core seconds spent on its units so far (running ones included). */
  readonly seconds: number;
  /** Estimated seconds until done (null when unknown or not running). */
  readonly etaSeconds: number | null;
  /** N(n, D) once done. */
  readonly value: string | null;
  readonly reason: string | null;
}

export interface SizeProgress {
  readonly n: number;
  /** Named `state` in `wq status --json` since its first version; the words are ProgressStatus. */
  readonly state: ProgressStatus;
  readonly unitsDone: number;
  readonly units: number;
  readonly S?: string;
  /** A classic sweep's Q(n) (A000170) and unique count (A002562) once done. */
  readonly Q?: string;
  readonly unique?: string;
  readonly reason?: string;
  /** `wq status` only: the plan's expected seconds next to the measured ones. */
  readonly timing?: SizeTiming;
  /** The dashboard only: every D of n. */
  readonly depths?: readonly DepthProgress[];
  /** Units waiting in a class queue that no live worker consumes (`wq replan` helps). */
  readonly unfit?: readonly UnfitUnit[];
}

/** A unit that needs more memory than any live worker has per slot. */
export interface UnfitUnit {
  readonly jobId: string;
  readonly queue: string;
  readonly n: number;
  readonly depth: number;
  /** Its estimated peak memory (bytes). */
  readonly bytes: number;
  /** The largest per-slot memory of a live worker (0: none live). */
  readonly largestSlotBytes: number;
}

/** Expected (calibrated plan) against measured single-core seconds of one n. */
export interface SizeTiming {
  readonly estimateSeconds?: number;
  /** Summed over the N(n, D) stored so far. */
  readonly actualSeconds: number;
  readonly depths: readonly DepthTiming[];
}

export interface DepthTiming {
  readonly depth: number;
  readonly algorithm: string;
  readonly units: number;
  readonly estimateSeconds?: number;
  readonly actualSeconds: number;
}

export interface SweepProgress {
  readonly sweep: SweepRecord;
  readonly status: ProgressStatus;
  readonly sizes: readonly SizeProgress[];
  readonly done: number;
  readonly total: number;
  readonly unitsDone: number;
  readonly units: number;
  /** Wall-clock seconds from submission to the last n done (or to now). */
  readonly elapsedSeconds: number;
  /** The sweep's own pace so far, extrapolated (null unless running). */
  readonly etaSeconds: number | null;
  /** The n its submission has not queued (yet, or ever: interrupted); see SweepRegistry. */
  readonly notQueued?: NotQueued;
}

export interface ProgressQueues {
  readonly count: Queue;
  readonly aggregate: Queue;
}

export interface ProgressReadOptions {
  /** Per-D progress (algorithm, units, seconds, ETA), as the dashboard shows it. */
  readonly depths?: boolean;
  /** Expected against measured seconds per n and D, as `wq status` shows them. */
  readonly timing?: boolean;
  /**
   * The ETA from the rates this run's finished units ran at (run-rates.ts): it reads the plans
   * and the stored units of every unfinished (n, D), so only those who show an ETA ask for it
   * (`wq sweep --wait`, `wq status`, the dashboard); otherwise the pace in units.
   */
  readonly eta?: boolean;
  readonly now?: number;
}

/** Job ids the planner gives: `n14-d9`, `n14-d9-p…-u3`, and the second counts `n14-d9-v…`. */
const JOB_ID = /^n(\d+)-d(\d+)(?:-v)?(?:-p[0-9a-f]+-u\d+)?$/;
/** The classic planner's unit ids: `c16-3.7`, `c16-v-3.7`, `c3-all`; keyed `c:16` below. */
const CLASSIC_JOB_ID = /^c(\d+)-/;

/** Bounds on what one read takes from the queues, so many failures cannot slow it down. */
const MAX_ACTIVE = 1000;
const MAX_FAILED = 500;

/**
 * KEYS: aggregate completed, aggregate failed, count active, count failed, worker clocks. ARGV:
 * max active, max failed, the job key prefix of aggregate, of count, then the sum job ids.
 * Returns {states, active, failed, now, clocks}: per sum job 'completed' | 'failed' | 'pending' |
 * 'unknown' with its failedReason; per active count job id, processedOn, progress and
 * processedBy; per failed job (both queues, newest first) id and failedReason; the server's time
 * (microseconds); each worker's clock skew (flat). BullMQ's own getState reads one job per call.
 */
const QUEUE_STATE = `
local aggregate, count = ARGV[3], ARGV[4]
local states = {}
for i = 5, #ARGV do
  local id = ARGV[i]
  local state = 'unknown'
  if redis.call('ZSCORE', KEYS[1], id) then state = 'completed'
  elseif redis.call('ZSCORE', KEYS[2], id) then state = 'failed'
  elseif redis.call('EXISTS', aggregate .. id) == 1 then state = 'pending' end
  states[#states + 1] = {state, redis.call('HGET', aggregate .. id, 'failedReason') or ''}
end
local active = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[3], 0, tonumber(ARGV[1]) - 1)) do
  local f = redis.call('HMGET', count .. id, 'processedOn', 'progress', 'processedBy')
  active[#active + 1] = {id, f[1] or '', f[2] or '', f[3] or ''}
end
local failed = {}
for q, key in ipairs({KEYS[4], KEYS[2]}) do
  local prefix = q == 1 and count or aggregate
  for _, id in ipairs(redis.call('ZREVRANGE', key, 0, tonumber(ARGV[2]) - 1)) do
    failed[#failed + 1] = {id, redis.call('HGET', prefix .. id, 'failedReason') or ''}
  end
end
local t = redis.call('TIME')
local now = t[1] .. string.format('%06d', tonumber(t[2]))
return {states, active, failed, now, redis.call('HGETALL', KEYS[5])}`;

/** KEYS: per unfinished (n, D), its depth job then its count job. Returns their `data`. */
const JOB_DATA = `
local out = {}
for i = 1, #KEYS do out[i] = redis.call('HGET', KEYS[i], 'data') or '' end
return out`;

type SumState = 'completed' | 'failed' | 'pending' | 'unknown';

interface RunningUnit {
  readonly startedAt: number;
  /** 0..100 from the worker's progress reports. */
  readonly progress: number;
}

/** What one read knows about the queues. */
interface QueueState {
  /** By sum job id: `n16` (weak), `c16` (classic). */
  readonly sums: Map<string, { state: SumState; reason: string }>;
  /** Running count jobs by `n:D` (weak) or `c:n` (classic). */
  readonly running: Map<string, RunningUnit[]>;
  /** The first failure by `n:D` or `c:n` (units before the sums above them: they say more). */
  readonly failed: Map<string, string>;
  /** The Redis server's time of the read (ms). */
  readonly now: number;
}

/** What the queues say an unfinished (n, D) consists of. */
interface DepthPlan {
  readonly units: number;
  readonly algorithm: string;
  /** The planner's single-core estimate (known for an unsplit D only). */
  readonly estimateSeconds: number | null;
  /** The plan its units were recorded under (see ResultStore.putPlan). */
  readonly planId?: string;
}

/** A recorded plan as the ETA needs it: every unit's model seconds, by unit key. */
interface PlanModel {
  readonly seconds: number;
  readonly units: ReadonlyMap<string, number>;
}

export class SweepProgressReader {
  /** planUnits is deterministic in (n, D, target) and takes milliseconds: plan each once. */
  private readonly fallbackPlans = new Map<string, DepthPlan>();
  /** Recorded plans never change (their id is a digest of them): read each once. */
  private readonly planModels = new Map<string, PlanModel | null>();

  constructor(
    private readonly redis: RedisClient,
    private readonly store: ResultStore,
    private readonly registry: SweepRegistry,
    private readonly queues: ProgressQueues,
    private readonly classic: ClassicResultStore,
  ) {}

  /** One sweep (an InvalidInputError naming the known sweeps when there is no such id). */
  async sweep(id: string, options: ProgressReadOptions = {}): Promise<SweepProgress> {
    const [progress] = await this.read([await this.registry.get(id)], options);
    if (!progress) throw new Error(`sweep ${id} was read but not returned`);
    return progress;
  }

  /** The progress of these sweeps, read together. */
  async read(
    sweeps: readonly SweepRecord[],
    options: ProgressReadOptions = {},
  ): Promise<SweepProgress[]> {
    if (sweeps.length === 0) return [];
    const weak = sweeps.filter((s) => !isClassic(s));
    const ns = [...new Set(weak.flatMap((s) => s.ns))];
    const classicNs = [...new Set(sweeps.filter(isClassic).flatMap((s) => s.ns))];
    // Sent together on one connection, so Redis runs them in this order: the queues first. A sum
    // job completes only after S(n) is stored, so a sum job seen finished or gone here has its
    // S(n) in the store read that follows (unless it was withdrawn): never cancelled by a race.
    const [queues, stored, classicStored, doneAt] = await Promise.all([
      this.queueState([...ns.map(sumJobId), ...classicNs.map(classicSumJobId)]),
      this.store.progress(ns, { unitSeconds: options.depths ?? false }),
      this.classic.progress(classicNs),
      this.store.completionTimes(weak),
    ]);
    // The Redis server's clock, which sweeps are recorded on and running units are put on.
    const now = options.now ?? queues.now;
    // The plans of unfinished (n, D): the dashboard's per-D view, and the ETA of a running sweep.
    const plans =
      weak.length && (options.depths || options.eta)
        ? await this.depthPlans(stored)
        : new Map<string, DepthPlan>();
    const progress: SweepProgress[] = [];
    for (const sweep of sweeps) {
      if (isClassic(sweep)) {
        const sizes: SizeProgress[] = [];
        for (const n of sweep.ns)
          sizes.push(await this.classicSize(n, sweep, classicStored, queues));
        progress.push(sweepProgress(sweep, sizes, classicDoneAt(sizes, classicStored), now));
        continue;
      }
      const sizes: SizeProgress[] = [];
      for (const n of sweep.ns) {
        const size = await this.size(n, sweep, stored.get(n), queues, plans, options, now);
        sizes.push(size);
      }
      const read = sweepProgress(sweep, sizes, doneAt.get(sweep.id), now);
      progress.push(
        read.status === 'running' && options.eta
          ? {
              ...read,
              etaSeconds:
                (await this.measuredEta(sweep, stored, queues, plans).catch(() => null)) ??
                read.etaSeconds,
            }
          : read,
      );
    }
    return progress;
  }

  /**
   * Seconds until a running sweep is done, at the rates its finished units ran at (per
   * algorithm and D, see run-rates.ts), on the live workers' slots. Null when the plan of an
   * unfinished (n, D) cannot be read (its jobs gone): then the pace in units is all there is.
   */
  private async measuredEta(
    sweep: SweepRecord,
    stored: Map<number, StoredSize>,
    queues: QueueState,
    plans: Map<string, DepthPlan>,
  ): Promise<number | null> {
    const strata: StratumProgress[] = [];
    const reads: Promise<void>[] = [];
    let missing = false;
    for (const n of sweep.ns) {
      const size = stored.get(n);
      if (size?.S !== undefined) continue;
      for (let depth = 0; depth < n; depth++) {
        const done = size?.depths.get(depth);
        const planId = done?.planId ?? plans.get(`${n}:${depth}`)?.planId;
        reads.push(
          (async () => {
            const model = planId === undefined ? null : await this.planModel(n, depth, planId);
            if (done) {
              if (!model) return;
              strata.push({
                n,
                depth,
                algorithm: done.algorithm,
                doneModelSeconds: model.seconds,
                doneSeconds: done.seconds,
                leftModelSeconds: 0,
                largestLeftModelSeconds: 0,
              });
              return;
            }
            if (!model) {
              missing = true;
              return;
            }
            const units = await this.store.units(n, depth);
            let doneModelSeconds = 0;
            let doneSeconds = 0;
            let largest = 0;
            for (const [key, seconds] of model.units) {
              const unit = units.get(key);
              if (unit) {
                doneModelSeconds += seconds;
                doneSeconds += unit.seconds;
              } else largest = Math.max(largest, seconds);
            }
            const leftModelSeconds = Math.max(0, model.seconds - doneModelSeconds);
            const left = Math.max(1, model.units.size - units.size);
            const running = queues.running.get(`${n}:${depth}`) ?? [];
            strata.push({
              n,
              depth,
              algorithm: plans.get(`${n}:${depth}`)?.algorithm ?? 'dfs',
              doneModelSeconds,
              doneSeconds,
              leftModelSeconds,
              largestLeftModelSeconds: largest,
              // A running unit's share: its reported progress of the average unit left.
              runningDoneModelSeconds: running.reduce(
                (t, u) => t + ((u.progress / 100) * leftModelSeconds) / left,
                0,
              ),
            });
          })(),
        );
      }
    }
    await Promise.all(reads);
    if (missing) return null;
    const live = await this.registry.liveWorkers();
    const slots = live.reduce((t, w) => t + w.concurrency, 0);
    return remainingTime(strata, { slots }).etaSeconds;
  }

  /** A recorded plan's model seconds (read once per plan id), or null when it is not there. */
  private async planModel(n: number, depth: number, planId: string): Promise<PlanModel | null> {
    const key = `${n}:${depth}:${planId}`;
    const known = this.planModels.get(key);
    if (known !== undefined) return known;
    const plan = await this.store.plan(n, depth, planId);
    const model = plan
      ? {
          seconds: [...plan.units.values()].reduce((t, u) => t + u.modelSeconds, 0),
          units: new Map([...plan.units].map(([unit, record]) => [unit, record.modelSeconds])),
        }
      : null;
    // A plan not (yet) there may be recorded later: only a found one is kept.
    if (model) this.planModels.set(key, model);
    return model;
  }

  /**
   * One n of a classic sweep: done with Q(n) and the unique count once stored; else, as for
   * S(n), its sum job (`c16`) decides between failed, cancelled and running.
   */
  private async classicSize(
    n: number,
    sweep: SweepRecord,
    stored: Map<number, StoredClassicSize>,
    queues: QueueState,
  ): Promise<SizeProgress> {
    const units = sweep.units[n] ?? 0;
    const size = stored.get(n);
    const result = size?.result;
    // A verified sweep counts its sample twice: those jobs are part of its work too.
    const checks = sweep.verify ? Math.min(sweep.sample ?? units, units) : 0;
    if (result) {
      return {
        n,
        state: 'done',
        unitsDone: units + checks,
        units: units + checks,
        Q: result.Q,
        unique: result.unique,
      };
    }
    const unitsDone = Math.min(
      (size?.unitsDone ?? 0) + (sweep.verify ? (size?.checksDone ?? 0) : 0),
      units + checks,
    );
    const { state, reason } = await this.unfinishedState(
      queues.sums.get(classicSumJobId(n)),
      queues.failed.get(`c:${n}`),
      `Q(${n}) is no longer in the result store; submit it again to recount it`,
      unitsDone > 0 || queues.running.has(`c:${n}`),
    );
    return {
      n,
      state,
      unitsDone,
      units: units + checks,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  private async size(
    n: number,
    sweep: SweepRecord,
    stored: StoredSize | undefined,
    queues: QueueState,
    plans: Map<string, DepthPlan>,
    options: ProgressReadOptions,
    now: number,
  ): Promise<SizeProgress> {
    const units = sweep.units[n] ?? n;
    const extras = {
      ...(options.timing ? { timing: timing(stored, sweep.estimates?.[n]) } : {}),
    };
    const S = stored?.S;
    if (S !== undefined) {
      const depths = options.depths ? this.depthViews(n, sweep, stored, queues, plans, now) : [];
      return {
        n,
        state: 'done',
        unitsDone: units,
        units,
        S,
        ...extras,
        ...(options.depths ? { depths } : {}),
      };
    }
    let counted = 0;
    for (let d = 0; d < n; d++) {
      counted += stored?.unitCounts[d] ?? 0;
      if (sweep.verify) counted += stored?.checkCounts[d] ?? 0;
    }
    const unitsDone = Math.min(counted, units);
    // Finished without S(n) stored: withdrawn by a recount, or deleted.
    const withdrawn = stored?.mismatch;
    const { state, reason } = await this.unfinishedState(
      queues.sums.get(sumJobId(n)),
      this.failedDepth(n, queues),
      withdrawn
        ? `S(${n}) was withdrawn: a recount disagreed (${withdrawn.depths.map((d) => `N(${n}, ${d.depth}): ${d.value} against ${d.expected}`).join('; ')})`
        : `S(${n}) is no longer in the result store; submit it again to recount it`,
      unitsDone > 0 ||
        Array.from({ length: n }, (_, d) => queues.running.has(`${n}:${d}`)).includes(true),
    );
    const depths = options.depths ? this.depthViews(n, sweep, stored, queues, plans, now) : [];
    return {
      n,
      state,
      unitsDone,
      units,
      ...(reason === undefined ? {} : { reason }),
      ...extras,
      ...(options.depths ? { depths } : {}),
    };
  }

  /**
   * The state of an n whose result is not stored. Only its sum job decides: a failed unit fails
   * its parents (failParentOnFailure), and a failed job left over from an earlier flow must not
   * fail a fresh one. A finished sum without a stored result was withdrawn or deleted (`gone`).
   */
  private async unfinishedState(
    sum: { state: SumState; reason: string } | undefined,
    firstFailure: string | undefined,
    gone: string,
    started: boolean,
  ): Promise<{ state: ProgressStatus; reason?: string }> {
    switch (sum?.state ?? 'unknown') {
      case 'failed': {
        const why = sum?.reason ?? '';
        return {
          state: 'failed',
          reason: /child \S+ failed/.test(why)
            ? (firstFailure ?? (await this.rootCause(why)))
            : why || 'failed',
        };
      }
      case 'completed':
        return { state: 'failed', reason: gone };
      case 'unknown':
        return { state: 'cancelled' };
      default:
        return { state: started ? 'running' : 'queued' };
    }
  }

  private depthViews(
    n: number,
    sweep: SweepRecord,
    stored: StoredSize | undefined,
    queues: QueueState,
    plans: Map<string, DepthPlan>,
    now: number,
  ): DepthProgress[] {
    const cancelled =
      stored?.S === undefined && (queues.sums.get(sumJobId(n))?.state ?? 'unknown') === 'unknown';
    const depths: DepthProgress[] = [];
    for (let d = 0; d < n; d++) {
      const result = stored?.depths.get(d);
      if (result) {
        depths.push({
          depth: d,
          status: 'done',
          algorithm: result.algorithm,
          unitsDone: result.units,
          units: result.units,
          seconds: result.seconds,
          etaSeconds: null,
          value: result.value,
          reason: null,
        });
        continue;
      }
      const key = `${n}:${d}`;
      const plan = plans.get(key) ?? this.fallbackPlan(n, d, sweep.targetSeconds);
      const running = queues.running.get(key) ?? [];
      const unitsDone = stored?.unitCounts[d] ?? 0;
      const units = Math.max(plan.units, unitsDone);
      const failed = queues.failed.get(key);
      const runSeconds = running.reduce((t, u) => t + Math.max(0, now - u.startedAt) / 1000, 0);
      const status: ProgressStatus = failed
        ? 'failed'
        : running.length
          ? 'running'
          : cancelled
            ? 'cancelled'
            : unitsDone > 0
              ? 'running'
              : 'queued';
      const seconds = (stored?.unitSeconds?.[d] ?? 0) + runSeconds;
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
          status === 'running' && left !== null ? left / Math.max(1, running.length) : null,
        value: null,
        reason: failed ?? null,
      });
    }
    return depths;
  }

  /** The first failed job of n's (n, D), as `<job id>: <reason>`. */
  private failedDepth(n: number, queues: QueueState): string | undefined {
    for (let d = 0; d < n; d++) {
      const failed = queues.failed.get(`${n}:${d}`);
      if (failed !== undefined) return failed;
    }
    return undefined;
  }

  /** Sum jobs (by id), running units and failures of both queues: one script. */
  private async queueState(sumIds: readonly string[]): Promise<QueueState> {
    const { count, aggregate } = this.queues;
    const reply = await this.redis.eval(
      QUEUE_STATE,
      5,
      aggregate.toKey('completed'),
      aggregate.toKey('failed'),
      count.toKey('active'),
      count.toKey('failed'),
      this.store.keys.workerClocks,
      String(MAX_ACTIVE),
      String(MAX_FAILED),
      aggregate.toKey(''),
      count.toKey(''),
      ...sumIds,
    );
    const [states, active, failedJobs, micros, clocks] = (Array.isArray(reply) ? reply : []) as [
      unknown[]?,
      unknown[]?,
      unknown[]?,
      unknown?,
      unknown[]?,
    ];
    const now = Math.floor(Number(micros) / 1000);
    // processedOn is the worker's own clock: put on the server's by that worker's skew.
    const skewOf = new Map<string, number>();
    for (let i = 0; i + 1 < (clocks?.length ?? 0); i += 2) {
      const skew = Number(clocks?.[i + 1]);
      if (Number.isFinite(skew)) skewOf.set(String(clocks?.[i]), skew);
    }
    const sums = new Map<string, { state: SumState; reason: string }>();
    sumIds.forEach((id, i) => {
      const [state, reason] = (states?.[i] ?? []) as unknown[];
      sums.set(id, {
        state: isSumState(state) ? state : 'unknown',
        reason: typeof reason === 'string' ? reason : '',
      });
    });
    const running = new Map<string, RunningUnit[]>();
    for (const entry of active ?? []) {
      const [id, processedOn, progress, processedBy] = entry as unknown[];
      const key = depthKeyOf(id);
      if (!key) continue;
      const list = running.get(key) ?? [];
      const started = Number(processedOn) - (skewOf.get(String(processedBy)) ?? 0);
      const fraction = Number(progress);
      list.push({
        startedAt: processedOn !== '' && Number.isFinite(started) ? started : now,
        progress: progress !== '' && Number.isFinite(fraction) ? fraction : 0,
      });
      running.set(key, list);
    }
    const failed = new Map<string, string>();
    for (const entry of failedJobs ?? []) {
      const [id, reason] = entry as unknown[];
      const key = depthKeyOf(id);
      if (key && !failed.has(key)) failed.set(key, `${String(id)}: ${String(reason)}`);
    }
    return { sums, running, failed, now: Number.isFinite(now) ? now : Date.now() };
  }

  /** The plan of each unfinished (n, D), from the data of its depth job or its only unit. */
  private async depthPlans(stored: Map<number, StoredSize>): Promise<Map<string, DepthPlan>> {
    const wanted: [string, string, string][] = [];
    for (const [n, size] of stored) {
      if (size.S !== undefined) continue;
      for (let d = 0; d < n; d++) {
        if (size.depths.has(d)) continue;
        const id = depthJobId(n, d);
        wanted.push([`${n}:${d}`, this.queues.aggregate.toKey(id), this.queues.count.toKey(id)]);
      }
    }
    const plans = new Map<string, DepthPlan>();
    if (wanted.length === 0) return plans;
    const keys = wanted.flatMap(([, depthJob, unitJob]) => [depthJob, unitJob]);
    const reply = await this.redis.eval(JOB_DATA, keys.length, ...keys);
    const data = (Array.isArray(reply) ? reply : []) as unknown[];
    wanted.forEach(([key], i) => {
      const plan = depthPlan(data[2 * i], data[2 * i + 1]);
      if (plan) plans.set(key, plan);
    });
    return plans;
  }

  /** For an (n, D) whose jobs are gone (cancelled): what the planner would make of it. */
  private fallbackPlan(n: number, depth: number, targetSeconds: number): DepthPlan {
    const key = `${n}:${depth}:${targetSeconds}`;
    let plan = this.fallbackPlans.get(key);
    if (!plan) {
      const units = planUnits(n, depth, { targetSeconds });
      plan = {
        units: units.length,
        algorithm: units[0]?.algorithm ?? 'dfs',
        estimateSeconds: null,
      };
      this.fallbackPlans.set(key, plan);
    }
    return plan;
  }

  /**
   * A parent failed by its child says only "child <key> failed": follow it to the reason (a
   * failure the bounded read above did not reach; a few reads, only for a failed n).
   */
  private async rootCause(failedReason: string): Promise<string> {
    let reason = failedReason || 'failed';
    for (let hops = 0; hops < 3; hops++) {
      const match = /child (\S+) failed/.exec(reason);
      if (!match?.[1]) break;
      const parts = match[1].split(':');
      const queue =
        parts[parts.length - 2] === QUEUE_NAMES.count ? this.queues.count : this.queues.aggregate;
      const child: Job | undefined = await queue.getJob(parts[parts.length - 1] ?? '');
      if (!child?.failedReason) break;
      reason = `${child.id}: ${child.failedReason}`;
    }
    return reason;
  }
}

function sweepProgress(
  sweep: SweepRecord,
  sizes: readonly SizeProgress[],
  doneAt: number | undefined,
  now: number,
): SweepProgress {
  const done = sizes.filter((s) => s.state === 'done').length;
  const status: ProgressStatus =
    done === sizes.length
      ? 'done'
      : sizes.some((s) => s.state === 'failed')
        ? 'failed'
        : sizes.some((s) => s.state === 'cancelled')
          ? 'cancelled'
          : sizes.some((s) => s.state === 'running')
            ? 'running'
            : 'queued';
  const unitsDone = sizes.reduce((t, s) => t + s.unitsDone, 0);
  const units = sizes.reduce((t, s) => t + s.units, 0);
  const elapsedSeconds = Math.max(0, ((doneAt ?? now) - Date.parse(sweep.createdAt)) / 1000);
  return {
    sweep,
    status,
    sizes,
    done,
    total: sizes.length,
    unitsDone,
    units,
    elapsedSeconds,
    // Units differ in size, so this is a rough guide.
    etaSeconds:
      status === 'running' && unitsDone > 0
        ? (elapsedSeconds * (units - unitsDone)) / unitsDone
        : null,
  };
}

function timing(stored: StoredSize | undefined, estimateSeconds: number | undefined): SizeTiming {
  const depths: DepthTiming[] = [...(stored?.depths.values() ?? [])]
    .sort((a: DepthResult, b: DepthResult) => a.depth - b.depth)
    .map((d) => ({
      depth: d.depth,
      algorithm: d.algorithm,
      units: d.units,
      ...(d.estimateSeconds === undefined ? {} : { estimateSeconds: d.estimateSeconds }),
      actualSeconds: d.seconds,
    }));
  return {
    ...(estimateSeconds === undefined ? {} : { estimateSeconds }),
    actualSeconds: depths.reduce((t, d) => t + d.actualSeconds, 0),
    depths,
  };
}

/** Reads the plan of an unfinished (n, D) from the data of its depth job or its only unit. */
function depthPlan(depthJob: unknown, unitJob: unknown): DepthPlan | undefined {
  try {
    if (typeof depthJob === 'string' && depthJob !== '') {
      const data = parseDepthJobData(JSON.parse(depthJob));
      return {
        units: data.unitKeys.length,
        algorithm: data.algorithm,
        estimateSeconds: null,
        planId: data.planId,
      };
    }
    if (typeof unitJob === 'string' && unitJob !== '') {
      const data = parseUnitJobData(JSON.parse(unitJob));
      return {
        units: 1,
        algorithm: data.algorithm,
        estimateSeconds: data.estimateSeconds,
        planId: data.planId,
      };
    }
  } catch {
    // A payload the workers would refuse too: shown with the planner's view instead.
  }
  return undefined;
}

/** `n:D` of a weak job, `c:n` of a classic one. */
function depthKeyOf(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = JOB_ID.exec(id);
  if (match) return `${match[1]}:${match[2]}`;
  const classic = CLASSIC_JOB_ID.exec(id);
  return classic ? `c:${classic[1]}` : undefined;
}

function isClassic(sweep: SweepRecord): boolean {
  return sweep.problem === 'classic';
}

/** When a classic sweep's last Q(n) was stored, once every n is. */
function classicDoneAt(
  sizes: readonly SizeProgress[],
  stored: Map<number, StoredClassicSize>,
): number | undefined {
  if (!sizes.every((s) => s.state === 'done')) return undefined;
  const times = sizes.map((s) => Date.parse(stored.get(s.n)?.result?.completedAt ?? ''));
  return times.every(Number.isFinite) ? Math.max(...times) : undefined;
}

function isSumState(value: unknown): value is SumState {
  return value === 'completed' || value === 'failed' || value === 'pending' || value === 'unknown';
}
