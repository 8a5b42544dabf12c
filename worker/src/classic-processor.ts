// The classic problem's processors: a `classic-unit` (count queue) counts one unit of Q(n), or a
// batch of them in turn, on a classic thread and stores each unit's subtotals with its class; a
// `classic-sum` (aggregate queue) adds every unit, each exactly once, compares the sampled
// second counts, and publishes Q(n) and the class count only when they agree.
import type { Job } from 'bullmq';
import {
  type ClassicRun,
  type ClassicThreads,
  type ClassicUnit,
  parseClassicUnitKey,
} from '@weak-queens/shared/kernel';
import {
  bullmq,
  type ClassicResultStore,
  type Logger,
  type WorkerInfo,
} from '@weak-queens/shared/client';
import {
  type ClassicResult,
  type ClassicUnitJobData,
  type ClassicUnitResult,
  parseClassicSumJobData,
  parseClassicUnitJobData,
} from '@weak-queens/shared/contracts';
import { asJobFailure } from './failures.js';
import { DEFER_MS, isBetterElsewhere, MAX_DEFERRALS } from './verification.js';

export interface ClassicProcessorDeps {
  readonly store: ClassicResultStore;
  readonly threads: ClassicThreads;
  readonly workerId: string;
  readonly logger: Logger;
  /** The workers with a recent heartbeat (a unit's two counts go to two of them). */
  readonly liveWorkers: () => Promise<readonly WorkerInfo[]>;
}

export function createClassicUnitProcessor(deps: ClassicProcessorDeps) {
  const { store, threads, workerId, logger } = deps;
  // Per job id: how often this worker has put a count back for another worker.
  const deferrals = new Map<string, number>();

  /** A counted unit as the store keeps it. */
  const resultOf = (data: ClassicUnitJobData, key: string, run: ClassicRun): ClassicUnitResult => ({
    kind: 'classic-unit',
    n: data.n,
    unit: key,
    method: data.method,
    boards: run.boards.toString(),
    classes: run.classes.toString(),
    seconds: run.seconds,
    worker: workerId,
    sweepId: data.sweepId,
    ...(data.role ? { role: data.role } : {}),
    startedAt: run.startedAt,
    slot: run.slot,
  });

  const unitOf = (n: number, key: string): ClassicUnit => {
    const unit = parseClassicUnitKey(n, key);
    if (!unit) throw new bullmq.UnrecoverableError(`classic unit job.unit: ${key} is no unit`);
    return unit;
  };

  const storeUnit = async (result: ClassicUnitResult, log: Logger): Promise<void> => {
    if ((await store.putUnit(result)) === 'conflict') {
      throw new bullmq.UnrecoverableError(
        `classic unit ${result.unit} of Q(${result.n}) counted ${result.boards} boards, ` +
          `${result.classes} classes, but the result store holds other subtotals; both kept`,
      );
    }
    log.info({ n: result.n, unit: result.unit, seconds: result.seconds }, 'classic unit counted');
  };

  /**
   * A job's units (one, or a batch) in turn on one thread, each stored while the thread counts
   * the next, so the thread never waits on Redis or on this thread between units. A re-run
   * (kill -9, stall) counts only the units the store lacks, read once for the whole job.
   */
  const countUnits = async (
    data: ClassicUnitJobData,
    keys: readonly string[],
    log: Logger,
  ): Promise<ClassicUnitResult[]> => {
    const results = await store.unitsAmong(data.n, keys, data.role);
    for (const key of results.keys()) {
      log.info({ n: data.n, unit: key }, 'classic unit already in the result store');
    }
    const todo = keys.filter((key) => !results.has(key));
    let storing: Promise<void> = Promise.resolve();
    try {
      await threads.countEach(
        todo.map((key) => unitOf(data.n, key)),
        data.method,
        (index, run) => {
          const result = resultOf(data, todo[index] as string, run);
          results.set(result.unit, result);
          storing = storing.then(() => storeUnit(result, log));
          // Awaited below; handled here so a failed store is not unhandled meanwhile.
          storing.catch(() => undefined);
        },
      );
    } finally {
      // Whatever happens to the rest, the units counted are stored (or their error seen).
      await storing;
    }
    return keys.map((key) => results.get(key) as ClassicUnitResult);
  };

  return async (job: Job, token?: string): Promise<ClassicUnitResult | ClassicUnitResult[]> => {
    const log = logger.child({ job: job.id });
    try {
      const data = parseClassicUnitJobData(job.data);
      if (data.batch) return await countUnits(data, data.batch, log);
      // A verified unit's two counts belong on two workers where there are two: a count whose
      // other count this worker made waits a moment for another one (a bounded number of times).
      const other =
        data.role === 'check'
          ? await store.unit(data.n, data.unit)
          : data.paired
            ? await store.unit(data.n, data.unit, 'check')
            : undefined;
      const deferred = deferrals.get(String(job.id)) ?? 0;
      if (
        token &&
        other &&
        deferred < MAX_DEFERRALS &&
        !(await store.unit(data.n, data.unit, data.role)) &&
        isBetterElsewhere(workerId, [other.worker], await deps.liveWorkers())
      ) {
        deferrals.set(String(job.id), deferred + 1);
        await job.moveToDelayed(Date.now() + DEFER_MS, token);
        throw new bullmq.DelayedError();
      }
      deferrals.delete(String(job.id));
      const [result] = await countUnits(data, [data.unit], log);
      return result as ClassicUnitResult;
    } catch (err) {
      if (err instanceof bullmq.DelayedError) throw err;
      log.warn({ err }, 'classic unit failed');
      throw asJobFailure(err);
    }
  };
}

export function createClassicSumProcessor(
  deps: Omit<ClassicProcessorDeps, 'threads' | 'liveWorkers'>,
) {
  const { store, logger } = deps;
  return async (job: Job): Promise<ClassicResult> => {
    try {
      const data = parseClassicSumJobData(job.data);
      // From the store, not the children's return values: units stored by an earlier sweep
      // were not enqueued again.
      const units = await store.units(data.n);
      const missing = data.unitKeys.filter((k) => !units.has(k));
      if (missing.length > 0) {
        throw new bullmq.UnrecoverableError(
          `children: units ${missing.slice(0, 5).join(', ')} of Q(${data.n}) have no result`,
        );
      }
      const checks = data.checkKeys ? await store.units(data.n, 'check') : new Map();
      for (const key of data.checkKeys ?? []) {
        const first = units.get(key) as ClassicUnitResult;
        const second = checks.get(key) as ClassicUnitResult | undefined;
        if (!second)
          throw new bullmq.UnrecoverableError(`children: second count of ${key} is missing`);
        if (first.boards !== second.boards || first.classes !== second.classes) {
          throw new bullmq.UnrecoverableError(
            `unit ${key} of Q(${data.n}): ${first.method} counted ${first.boards} boards and ` +
              `${first.classes} classes on ${first.worker}, ${second.method} ${second.boards} and ` +
              `${second.classes} on ${second.worker}; Q(${data.n}) is not published`,
          );
        }
      }
      let boards = 0n;
      let classes = 0n;
      let seconds = 0;
      const workers = new Set<string>();
      for (const key of data.unitKeys) {
        const unit = units.get(key) as ClassicUnitResult;
        boards += BigInt(unit.boards);
        classes += BigInt(unit.classes);
        seconds += unit.seconds;
        workers.add(unit.worker);
      }
      const result: ClassicResult = {
        kind: 'classic',
        n: data.n,
        Q: boards.toString(),
        unique: classes.toString(),
        units: data.unitKeys.length,
        checked: data.checkKeys?.length ?? 0,
        seconds,
        workers: [...workers].sort(),
        sweepId: data.sweepId,
        completedAt: new Date().toISOString(),
      };
      await store.putResult(result);
      logger.info({ n: data.n, Q: result.Q, unique: result.unique }, 'Q(n) published');
      return result;
    } catch (err) {
      logger.warn({ err, job: job.id }, 'classic sum failed');
      throw asJobFailure(err);
    }
  };
}
