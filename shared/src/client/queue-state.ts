// What one read of the queues knows: the state of each sum job, the running units and the
// failures, by (n, D) or by classic n, in one script whatever their number.
import type { Job } from 'bullmq';
import { QUEUE_NAMES } from '../contracts/index.js';
import type { RedisClient } from './connection.js';
import { QUEUE_STATE } from './commands/index.js';
import type { ProgressQueues, ProgressStatus } from './sweep-progress.js';

/** Job ids the planner gives: `n14-d9`, `n14-d9-p…-u3`, and the second counts `n14-d9-v…`. */
const JOB_ID = /^n(\d+)-d(\d+)(?:-v)?(?:-p[0-9a-f]+-u\d+)?$/;
/** The classic planner's unit ids: `c16-3.7`, `c16-v-3.7`, `c3-all`; keyed `c:16` below. */
const CLASSIC_JOB_ID = /^c(\d+)-/;

/** Bounds on what one read takes from the queues, so many failures cannot slow it down. */
const MAX_ACTIVE = 1000;
const MAX_FAILED = 500;

export type SumState = 'completed' | 'failed' | 'pending' | 'unknown';

interface RunningUnit {
  readonly startedAt: number;
  /** 0..100 from the worker's progress reports. */
  readonly progress: number;
}

/** What one read knows about the queues. */
export interface QueueState {
  /** By sum job id: `n16` (weak), `c16` (classic). */
  readonly sums: Map<string, { state: SumState; reason: string }>;
  /** Running count jobs by `n:D` (weak) or `c:n` (classic). */
  readonly running: Map<string, RunningUnit[]>;
  /** The first failure by `n:D` or `c:n` (units before the sums above them: they say more). */
  readonly failed: Map<string, string>;
  /** The Redis server's time of the read (ms). */
  readonly now: number;
}

/** Sum jobs (by id), running units and failures of both queues: one script. */
export async function readQueueState(
  redis: RedisClient,
  queues: ProgressQueues,
  workerClocksKey: string,
  sumIds: readonly string[],
): Promise<QueueState> {
  const { count, aggregate } = queues;
  const reply = await QUEUE_STATE.run(
    redis,
    {
      aggregateCompleted: aggregate.toKey('completed'),
      aggregateFailed: aggregate.toKey('failed'),
      countActive: count.toKey('active'),
      countFailed: count.toKey('failed'),
      workerClocks: workerClocksKey,
    },
    {
      maxActive: String(MAX_ACTIVE),
      maxFailed: String(MAX_FAILED),
      aggregatePrefix: aggregate.toKey(''),
      countPrefix: count.toKey(''),
    },
    { args: sumIds },
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

/**
 * The state of an n whose result is not stored. Only its sum job decides: a failed unit fails
 * its parents (failParentOnFailure), and a failed job left over from an earlier flow must not
 * fail a fresh one. A finished sum without a stored result was withdrawn or deleted (`gone`).
 */
export async function unfinishedState(
  queues: ProgressQueues,
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
          ? (firstFailure ?? (await rootCause(queues, why)))
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

/**
 * A parent failed by its child says only "child <key> failed": follow it to the reason (a
 * failure the bounded read above did not reach; a few reads, only for a failed n).
 */
async function rootCause(queues: ProgressQueues, failedReason: string): Promise<string> {
  let reason = failedReason || 'failed';
  for (let hops = 0; hops < 3; hops++) {
    const match = /child (\S+) failed/.exec(reason);
    if (!match?.[1]) break;
    const parts = match[1].split(':');
    const queue = parts[parts.length - 2] === QUEUE_NAMES.count ? queues.count : queues.aggregate;
    const child: Job | undefined = await queue.getJob(parts[parts.length - 1] ?? '');
    if (!child?.failedReason) break;
    reason = `${child.id}: ${child.failedReason}`;
  }
  return reason;
}

/** `n:D` of a weak job, `c:n` of a classic one. */
function depthKeyOf(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = JOB_ID.exec(id);
  if (match) return `${match[1]}:${match[2]}`;
  const classic = CLASSIC_JOB_ID.exec(id);
  return classic ? `c:${classic[1]}` : undefined;
}

function isSumState(value: unknown): value is SumState {
  return value === 'completed' || value === 'failed' || value === 'pending' || value === 'unknown';
}
