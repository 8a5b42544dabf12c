// The `count` queue's processor: validates the unit, skips it when the result store already
// has it, runs the kernel on a pool thread, stores the result and returns it.
import type { Job } from 'bullmq';
import {
  CHECK_MEET_SHIFT,
  estimateBytes,
  estimateCheckTransferBytes,
  HandBackError,
  type KernelPool,
  type KernelRun,
  type WorkUnit,
} from '@weak-queens/shared/kernel';
import { bullmq, type Logger, type ResultStore } from '@weak-queens/shared/client';
import {
  type MemoryBudget,
  parseUnitJobData,
  type PlanHeader,
  type UnitJobData,
  type UnitResult,
  unitKey,
  type VerifiedResult,
  wholeDepth,
} from '@weak-queens/shared/contracts';
import { asJobFailure } from './failures.js';
import type { CountTally } from './count-tally.js';
import { firstCount } from './verification.js';
import { passingRefusal, type RefusalRiding, rideRefusals } from './refusal-rider.js';

export interface CountProcessorDeps {
  readonly store: ResultStore;
  readonly pool: KernelPool;
  readonly workerId: string;
  readonly logger: Logger;
  /** Shortest time between two progress updates of one job. */
  readonly progressIntervalMs: number;
  /**
   * The slot and worker memory this worker advertises in its heartbeat: the largest estimated
   * memory of a unit it runs as planned, and of a window transfer (alone on all its slots).
   */
  readonly memory: MemoryBudget;
  /** Counts the units for the worker's once-a-minute log line (absent: no such line). */
  readonly tally?: CountTally;
  /** TEST ONLY (WQ_TEST_FAIL_JOBS): job ids failed on every attempt with a retryable error. */
  readonly failJobs?: readonly string[];
  /** Writes Redis refuses for a while (OOM, MISCONF) tried again this long (refusal-rider.ts). */
  readonly refusals?: RefusalRiding;
}

export function createCountProcessor(deps: CountProcessorDeps) {
  const { store, pool, workerId, logger } = deps;
  return async (job: Job, token?: string): Promise<UnitResult | VerifiedResult> => {
    const log = logger.child({ job: job.id });
    let data;
    try {
      data = parseUnitJobData(job.data);
    } catch (err) {
      log.warn({ err }, 'invalid unit job');
      throw asJobFailure(err);
    }
    const middle = data.middle ?? [];
    const key = unitKey(data.prefix, middle, data.part);
    const check = data.role === 'check';
    // Only a unit the producer planned is counted, as planned: a job added by hand (or by a
    // buggy client) with a valid shape never becomes a result. Whether it is stored already is
    // read meanwhile (a tiny unit's job is mostly such round trips), used only once it passed.
    const storedRead = store.unit(data.n, data.depth, key, data.role);
    storedRead.catch(() => undefined);
    const planned = await store.plannedUnit(data.n, data.depth, data.planId, key);
    const refusal = planned && refuseAgainstPlan(data, planned.header, planned.unit.weight);
    if (!planned || refusal) {
      const reason = planned
        ? refusal
        : `unit ${key} of N(${data.n}, ${data.depth}) is not in recorded plan ${data.planId}`;
      log.warn({ n: data.n, depth: data.depth, unit: key, reason }, 'unplanned unit refused');
      throw new bullmq.UnrecoverableError(`unit job: ${reason}; only planned units are counted`);
    }
    // The second count of a verified (n, D) as one unit runs after the first (its child). The
    // first has no stored N(n, D) yet where it is made of imports this count is to vouch for:
    // the sum compares the two either way.
    const first = check && data.whole ? await firstCount(data.n, data.depth, store) : undefined;
    const answer = (result: UnitResult): UnitResult | VerifiedResult =>
      first
        ? {
            kind: 'verified',
            n: data.n,
            depth: data.depth,
            primary: first,
            check: wholeDepth(result),
          }
        : result;
    const stored = await storedRead;
    if (stored) {
      log.info({ n: data.n, depth: data.depth, unit: key }, 'unit already in the result store');
      // Its N(n, D) may be missing beside it (a store from before the two were one write, or
      // one edited by hand): written again.
      if (data.whole) await store.putDepth({ ...wholeDepth(stored), planId: data.planId });
      return answer(stored);
    }
    // Listed without their plan part (`n12-d9-u2`), which a test cannot know in advance.
    const listedAs = String(job.id).replace(/-p[0-9a-f]{12}(?=-u\d+$)/, '');
    if (deps.failJobs?.includes(listedAs)) {
      log.warn(
        { attempt: job.attemptsMade + 1 },
        'failing the unit on purpose (WQ_TEST_FAIL_JOBS)',
      );
      throw new Error(
        `injected failure: job ${listedAs} is listed in WQ_TEST_FAIL_JOBS (test only)`,
      );
    }

    // The planner keeps units under the memory cap; this worker's own cap is checked again,
    // so a unit planned elsewhere with a larger cap never takes this process down: it runs
    // with the DFS instead, which counts the same thing in memory that does not grow.
    let algorithm = data.algorithm;
    // A second count by the transfer meets past the middle row (see planCheck): other partial
    // counts than a first count by the transfer pairs, in cells that may be wider.
    const shifted =
      check && algorithm === 'window-transfer' && !data.part && data.prefix.length === 0;
    const bytes = shifted
      ? estimateCheckTransferBytes(data.n, data.depth)
      : estimateBytes(algorithm, data.n, data.depth, data.prefix, middle, data.part);
    // A window transfer runs alone on all of this worker's slots: it may use all its memory.
    const transfer = algorithm === 'window-transfer';
    const capBytes = transfer ? deps.memory.workerMemoryBytes : deps.memory.slotMemoryBytes;
    const capName = transfer ? 'WQ_WORKER_MEMORY' : 'WQ_SLOT_MEMORY';
    if (bytes > capBytes && data.part) {
      // A part is only a transfer's: the DFS cannot count a share of its pairing.
      throw new bullmq.UnrecoverableError(
        `unit ${key} of N(${data.n}, ${data.depth}) needs ${bytes} bytes, above this worker's ` +
          `${capName} (${capBytes}), and a transfer part has no DFS to fall ` +
          `back on; start a worker that can hold it, or wq replan the sweep`,
      );
    }
    // The DFS's memory does not grow with the board: it always fits, as the planner takes it.
    if (bytes > capBytes && algorithm !== 'dfs') {
      log.warn(
        { algorithm, bytes, capBytes, cap: capName },
        `unit above ${capName}: counting it with dfs`,
      );
      algorithm = 'dfs';
    }
    const unit: WorkUnit = {
      n: data.n,
      depth: data.depth,
      algorithm,
      prefix: data.prefix,
      middle,
      weight: data.weight,
      ...(data.part ? { part: data.part } : {}),
      ...(shifted && algorithm === 'window-transfer' ? { meetShift: CHECK_MEET_SHIFT } : {}),
      // A second count by the DFS searches the mirror images of the first's units (see planCheck).
      ...(check && algorithm === 'dfs' ? { mirrored: true } : {}),
      estimate: { seconds: data.estimateSeconds, bytes },
    };
    const { modelSeconds, boundSeconds } = planned.unit;
    let lastReport = 0;
    const onProgress = (fraction: number): void => {
      const now = Date.now();
      if (now - lastReport < deps.progressIntervalMs) return;
      lastReport = now;
      job.updateProgress(Math.round(fraction * 1000) / 10).catch((err: unknown) => {
        log.warn({ err }, 'progress update failed');
      });
    };

    // Written while the kernel runs: the counter need not be in Redis before the count starts.
    const noted = store.noteUnitStart();
    noted.catch(() => undefined);
    let run: KernelRun;
    try {
      run = await pool.run(unit, onProgress, { boundSeconds });
    } catch (err) {
      if (err instanceof HandBackError) {
        // Back to `wait` without spending an attempt; another worker takes it from the start.
        await job.moveToWait(token);
        log.info('unit handed back');
        throw new bullmq.WaitingError();
      }
      log.warn({ err }, 'unit failed');
      throw asJobFailure(err);
    }
    // A counter Redis refused fails the job as before, without a line of its own (the worker's
    // error back-off says it once), unless the refusal may pass (out of memory, a full disk):
    // that is waited out, as the unit's own write is, with the count in hand.
    const riding = deps.refusals ?? { limitMs: 0 };
    await noted.catch(async (err: unknown) => {
      if (!passingRefusal(err)) throw err;
      await rideRefusals('unit start', () => store.noteUnitStart(), riding);
    });
    const result: UnitResult = {
      kind: 'unit',
      n: data.n,
      depth: data.depth,
      unit: key,
      value: run.value.toString(),
      algorithm,
      // The count's own time, as the pool measured it (not the wait for a slot).
      seconds: run.seconds,
      worker: workerId,
      sweepId: data.sweepId,
      startedAt: run.startedAt,
      slot: run.slot,
      estimateSeconds: data.estimateSeconds,
      // Its provenance, which the sums check against the plan (and the MAC covers).
      weight: data.weight,
      planId: data.planId,
      ...(check ? { role: 'check' as const } : {}),
      // Only a unit run as planned says something about the planned algorithm's model; the
      // model seconds come from the recorded plan, not from the job.
      ...(algorithm !== data.algorithm ? {} : { modelSeconds }),
    };
    // A unit that is its whole (n, D) writes N(n, D) in the same step.
    const put = () => store.putUnit(result, data.whole ? wholeDepth(result) : undefined);
    if ((await rideRefusals('unit', put, riding)) === 'conflict') {
      throw new bullmq.UnrecoverableError(
        `unit ${key} of N(${data.n}, ${data.depth}) counted ${result.value}, but the result ` +
          `store holds another value for it; both are kept as a disagreement ` +
          `(wq verify ${data.n} --repair counts it again)`,
      );
    }
    // No last progress report of 100 %: progress is read of active jobs only, and this one
    // completes now (it was one more script per job, most of a tiny unit's cost).
    log.debug(
      { n: data.n, depth: data.depth, unit: key, role: data.role, seconds: result.seconds },
      'unit counted',
    );
    deps.tally?.note(data.n, data.depth, result.seconds);
    return answer(result);
  };
}

/** Why a unit job disagrees with the plan it names, or undefined when it matches. */
function refuseAgainstPlan(
  data: UnitJobData,
  header: PlanHeader,
  weight: number,
): string | undefined {
  if (data.weight !== weight) return `weight ${data.weight} is not the planned ${weight}`;
  const role = data.role ?? 'primary';
  if (header.role !== role) return `plan ${data.planId} is a ${header.role} count, not ${role}`;
  if (header.algorithm !== data.algorithm) {
    return `plan ${data.planId} counts with ${header.algorithm}, not ${data.algorithm}`;
  }
  if (data.whole !== (header.units === 1)) {
    return `whole is ${data.whole}, but plan ${data.planId} has ${header.units} unit(s)`;
  }
  return undefined;
}
