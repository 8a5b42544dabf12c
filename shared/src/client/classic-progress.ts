// Progress of a classic sweep: Q(n) and the classes once stored, else the state of its sum job
// and its units counted so far (its verified sample included).
import { classicSumJobId } from '../contracts/index.js';
import type { StoredClassicSize } from './classic-result-store.js';
import { type QueueState, unfinishedState } from './queue-state.js';
import {
  type ProgressQueues,
  type SizeProgress,
  type SweepProgress,
  sweepProgress,
} from './sweep-progress.js';
import type { SweepRecord } from './sweep-registry.js';

/** A classic sweep's progress, from what the store and the queues hold of its n. */
export async function classicSweepProgress(
  sweep: SweepRecord,
  stored: Map<number, StoredClassicSize>,
  queues: QueueState,
  progressQueues: ProgressQueues,
  now: number,
): Promise<SweepProgress> {
  const sizes: SizeProgress[] = [];
  for (const n of sweep.ns) sizes.push(await classicSize(n, sweep, stored, queues, progressQueues));
  return sweepProgress(sweep, sizes, classicDoneAt(sizes, stored), now);
}

/**
 * One n of a classic sweep: done with Q(n) and the unique count once stored; else, as for
 * S(n), its sum job (`c16`) decides between failed, cancelled and running.
 */
async function classicSize(
  n: number,
  sweep: SweepRecord,
  stored: Map<number, StoredClassicSize>,
  queues: QueueState,
  progressQueues: ProgressQueues,
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
  const { state, reason } = await unfinishedState(
    progressQueues,
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

/** When a classic sweep's last Q(n) was stored, once every n is. */
function classicDoneAt(
  sizes: readonly SizeProgress[],
  stored: Map<number, StoredClassicSize>,
): number | undefined {
  if (!sizes.every((s) => s.state === 'done')) return undefined;
  const times = sizes.map((s) => Date.parse(stored.get(s.n)?.result?.completedAt ?? ''));
  return times.every(Number.isFinite) ? Math.max(...times) : undefined;
}
