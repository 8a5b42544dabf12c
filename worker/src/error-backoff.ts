// A worker whose Redis keeps refusing it (out of memory, a read-only replica, keys evicted
// under it) without being away: BullMQ reports such an error and fetches again at once, so
// every slot would fail thousands of times a second, each failure a log line with a stack.
// Here the log gets one line per kind of error (and one when the errors stop), and the
// BullMQ workers pause between tries, twice as long each time, up to a minute.
import type { Worker } from 'bullmq';
import type { Logger } from '@weak-queens/shared/client';
import { redisRefusalOf } from '@weak-queens/shared/contracts';

export interface ErrorBackoffOptions {
  readonly logger: Logger;
  /** The BullMQ workers to pause while errors repeat (read at each pause: queues come and go). */
  readonly workers: () => readonly Worker[];
  /** True once the service is closing: nothing is resumed then. */
  readonly closing: () => boolean;
  /** The first pause (default 1 s); each next one twice as long… */
  readonly firstPauseMs?: number;
  /** …up to this (default 60 s). */
  readonly maxPauseMs?: number;
}

/** Errors this far apart are two episodes, not one that repeats. */
const EPISODE_GAP_MS = 60_000;
/** How long without an error before a finished job ends an episode. */
const QUIET_MS = 10_000;
/** A lone error is logged, not paused for: BullMQ's own retries handle one-offs. */
const ERRORS_BEFORE_PAUSE = 3;

export class ErrorBackoff {
  private readonly seen = new Set<string>();
  private errors = 0;
  private lastErrorAt = 0;
  private nextPauseMs: number;
  private resumeTimer?: NodeJS.Timeout;

  constructor(private readonly options: ErrorBackoffOptions) {
    this.nextPauseMs = options.firstPauseMs ?? 1000;
  }

  /**
   * An error that is not a lost connection (those are RedisOutage's). Logged once per kind in
   * an episode; with `pause` (an error of taking or finishing jobs), repeats pause the workers.
   */
  report(err: unknown, source: string, pause = true): void {
    const now = Date.now();
    if (now - this.lastErrorAt > EPISODE_GAP_MS) this.reset();
    this.lastErrorAt = now;
    this.errors += 1;
    const kind = errorKind(err);
    if (!this.seen.has(kind)) {
      this.seen.add(kind);
      const refusal = redisRefusalOf(err);
      const reason = refusal?.message ?? (err instanceof Error ? err.message : String(err));
      this.options.logger.error(
        { reason: reason.split('\n')[0], source, errors: this.errors },
        'worker error (said once; repeats back off)',
      );
    }
    if (pause && this.errors >= ERRORS_BEFORE_PAUSE) this.pause();
  }

  /**
   * A job went through. The episode is over only when errors have also stopped for a while:
   * with keys evicted some jobs finish while others keep failing.
   */
  succeeded(): void {
    if (this.errors === 0 || Date.now() - this.lastErrorAt < QUIET_MS) return;
    this.options.logger.info({ errors: this.errors }, 'worker errors stopped');
    this.reset();
  }

  /** Stops a pending resume (the service is closing). */
  close(): void {
    clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
  }

  private pause(): void {
    if (this.resumeTimer !== undefined || this.options.closing()) return;
    const ms = this.nextPauseMs;
    this.nextPauseMs = Math.min(ms * 2, this.options.maxPauseMs ?? 60_000);
    const workers = this.options.workers();
    // pause(true): stop fetching now; the units already running go on.
    for (const worker of workers) worker.pause(true).catch(() => undefined);
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = undefined;
      if (this.options.closing()) return;
      for (const worker of this.options.workers()) worker.resume().catch(() => undefined);
    }, ms);
    this.resumeTimer.unref();
  }

  private reset(): void {
    this.seen.clear();
    this.errors = 0;
    this.nextPauseMs = this.options.firstPauseMs ?? 1000;
  }
}

/**
 * What makes two errors the same kind: the refusal (OOM, READONLY) or the message without the
 * parts that differ from job to job (ids, script hashes, line numbers).
 */
function errorKind(err: unknown): string {
  const refusal = redisRefusalOf(err);
  if (refusal) return refusal.name;
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '')
    .replace(/script: \w+, on @user_script:\d+\.?/g, 'script')
    .replace(/job \S+/g, 'job *')
    .replace(/\d+/g, '#');
}
