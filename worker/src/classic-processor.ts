// The classic problem's processors: a `classic-unit` (count queue) counts one unit of Q(n) on a
// classic thread and stores its subtotals with its class; a `classic-sum` (aggregate queue)
// adds every unit, each exactly once, compares the sampled second counts, and publishes Q(n)
// and the class count only when they agree.
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { type ClassicThreads, parseClassicUnitKey } from '@weak-queens/shared/kernel';
import { type ClassicResultStore, type Logger, type WorkerInfo } from '@weak-queens/shared/client';
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

  /** Counts one unit on a classic thread: its result, not yet stored. */
  const countUnit = async (data: ClassicUnitJobData, key: string): Promise<ClassicUnitResult> => {
    const unit = parseClassicUnitKey(data.n, key);
    if (!unit) throw new UnrecoverableError(`classic unit job.unit: ${key} is no unit`);
    const startedAt = Date.now();
    const started = performance.now();
    const run = await threads.count(unit, data.method);
    return {
      kind: 'classic-unit',
      n: data.n,
      unit: key,
      method: data.method,
      boards: run.boards.toString(),
      classes: run.classes.toString(),
      seconds: (performance.now() - started) / 1000,
      worker: workerId,
      sweepId: data.sweepId,
      ...(data.role ? { role: data.role } : {}),
      startedAt,
      slot: run.slot,
    };
  };

  const storeUnit = async (result: ClassicUnitResult, log: Logger): Promise<void> => {
    if ((await store.putUnit(result)) === 'conflict') {
      throw new UnrecoverableError(
        `classic unit ${result.unit} of Q(${result.n}) counted ${result.boards} boards, ` +
          `${result.classes} classes, but the result store holds other subtotals; both kept`,
      );
    }
    log.info({ n: result.n, unit: result.unit, seconds: result.seconds }, 'classic unit counted');
  };

  /**
   * A batch: its units in turn, each stored while the next one is counted, so the thread
   * does not wait on Redis between units. A re-run (kill -9, stall) counts only the units the
   * store lacks, read once for the whole batch.
   */
  const countBatch = async (
    data: ClassicUnitJobData,
    keys: readonly string[],
    log: Logger,
  ): Promise<ClassicUnitResult[]> => {
    const stored = await store.unitsAmong(data.n, keys);
    const results: ClassicUnitResult[] = [];
    let storing: Promise<void> = Promise.resolve();
    try {
      for (const key of keys) {
        const done = stored.get(key);
        if (done) {
          log.info({ n: data.n, unit: key }, 'classic unit already in the result store');
          results.push(done);
          continue;
        }
        const result = await countUnit(data, key);
        await storing;
        storing = storeUnit(result, log);
        // Handled here so a failed store does not count as unhandled while the next unit runs;
        // it is still awaited (and thrown) before the next store and at the end.
        storing.catch(() => undefined);
        results.push(result);
      }
    } finally {
      // Whatever happens to the next unit, the last one counted is stored (or its error seen).
      await storing;
    }
    return results;
  };

  return async (job: Job, token?: string): Promise<ClassicUnitResult | ClassicUnitResult[]> => {
    const log = logger.child({ job: job.id });
    try {
      const data = parseClassicUnitJobData(job.data);
      if (data.batch) return await countBatch(data, data.batch, log);
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
        throw new DelayedError();
      }
      deferrals.delete(String(job.id));
      // A re-run after a kill -9 or a stall finds its unit stored: nothing to count again.
      const stored = await store.unit(data.n, data.unit, data.role);
      if (stored) {
        log.info({ n: data.n, unit: data.unit }, 'classic unit already in the result store');
        return stored;
      }
      const result = await countUnit(data, data.unit);
      await storeUnit(result, log);
      return result;
    } catch (err) {
      if (err instanceof DelayedError) throw err;
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
        throw new UnrecoverableError(
          `children: units ${missing.slice(0, 5).join(', ')} of Q(${data.n}) have no result`,
        );
      }
      const checks = data.checkKeys ? await store.units(data.n, 'check') : new Map();
      for (const key of data.checkKeys ?? []) {
        const first = units.get(key) as ClassicUnitResult;
        const second = checks.get(key) as ClassicUnitResult | undefined;
        if (!second) throw new UnrecoverableError(`children: second count of ${key} is missing`);
        if (first.boards !== second.boards || first.classes !== second.classes) {
          throw new UnrecoverableError(
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
