// Progress of a weak-queens sweep: S(n) once stored, else per (n, D) what is counted, running,
// failed or cancelled, with the plans of the unfinished D and the ETA from this run's rates.
import type { RedisClient } from './connection.js';
import { JOB_DATA } from './commands/index.js';
import {
  depthJobId,
  type DepthResult,
  parseDepthJobData,
  parseUnitJobData,
  sumJobId,
} from '../contracts/index.js';
import { planUnits } from '../kernel/plan.js';
import { remainingTime, type StratumProgress } from './run-rates.js';
import type { ResultStore, StoredSize } from './result-store.js';
import type { SweepRecord, SweepRegistry } from './sweep-registry.js';
import { type QueueState, unfinishedState } from './queue-state.js';
import {
  type DepthProgress,
  type DepthTiming,
  type ProgressQueues,
  type ProgressReadOptions,
  type ProgressStatus,
  type SizeProgress,
  type SizeTiming,
  type SweepProgress,
  sweepProgress,
} from './sweep-progress.js';

/** What the queues say an unfinished (n, D) consists of. */
export interface DepthPlan {
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

export class WeakProgress {
  /** planUnits is deterministic in (n, D, target) and takes milliseconds: plan each once. */
  private readonly fallbackPlans = new Map<string, DepthPlan>();
  /** Recorded plans never change (their id is a digest of them): read each once. */
  private readonly planModels = new Map<string, PlanModel | null>();

  constructor(
    private readonly redis: RedisClient,
    private readonly store: ResultStore,
    private readonly registry: SweepRegistry,
    private readonly queues: ProgressQueues,
  ) {}

  /** A weak sweep's progress; with `eta`, a running one's ETA from this run's rates. */
  async sweep(
    sweep: SweepRecord,
    stored: Map<number, StoredSize>,
    queues: QueueState,
    plans: Map<string, DepthPlan>,
    doneAt: number | undefined,
    options: ProgressReadOptions,
    now: number,
  ): Promise<SweepProgress> {
    const sizes: SizeProgress[] = [];
    for (const n of sweep.ns) {
      const size = await this.size(n, sweep, stored.get(n), queues, plans, options, now);
      sizes.push(size);
    }
    const read = sweepProgress(sweep, sizes, doneAt, now);
    if (!options.eta) return read;
    if (read.status === 'done') return { ...read, workDone: 1 };
    if (read.status !== 'running') return read;
    const measured = await this.measuredEta(sweep, stored, queues, plans).catch(() => null);
    return measured
      ? { ...read, etaSeconds: measured.etaSeconds, workDone: measured.workDone }
      : read;
  }

  /**
   * Seconds until a running sweep is done, at the rates its finished units ran at (per
   * algorithm and D, see run-rates.ts), on the live workers' slots, and the share of its work
   * done. Null when the plan of an unfinished (n, D) cannot be read (its jobs gone): then the
   * pace in units is all there is.
   */
  private async measuredEta(
    sweep: SweepRecord,
    stored: Map<number, StoredSize>,
    queues: QueueState,
    plans: Map<string, DepthPlan>,
  ): Promise<{ etaSeconds: number; workDone: number } | null> {
    const strata: StratumProgress[] = [];
    const reads: Promise<void>[] = [];
    let missing = false;
    // The finished n's work, as measured: done, and part of the sweep's whole.
    let finishedSeconds = 0;
    for (const n of sweep.ns) {
      const size = stored.get(n);
      if (size?.S !== undefined) {
        for (const depth of size.depths.values()) finishedSeconds += depth.seconds;
        continue;
      }
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
    const left = remainingTime(strata, { slots });
    const done = finishedSeconds + left.doneCoreSeconds;
    const whole = done + left.coreSeconds;
    return { etaSeconds: left.etaSeconds, workDone: whole > 0 ? done / whole : 0 };
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

  /** One n: done with S(n) once stored; else its sum job decides, with its units' counts. */
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
    const { state, reason } = await unfinishedState(
      this.queues,
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
  /** The plan of each unfinished (n, D), from the data of its depth job or its only unit. */
  async depthPlans(stored: Map<number, StoredSize>): Promise<Map<string, DepthPlan>> {
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
    const reply = await JOB_DATA.run(this.redis, {}, {}, { keys });
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
