// A write Redis refuses for a while, out of memory (OOM) or unable to write to its disk
// (MISCONF), is tried again rather than failed: the count it stores is in hand, and failing the
// job would spend its attempts (all three within a second) on what Redis may take seconds to fix.
// Each refusal goes to `report` (the worker's error back-off, which says each kind once an
// episode); past `limitMs` (WQ_REDIS_OUTAGE_MS) the job fails as before, naming the refusal.
import {
  RedisDiskError,
  RedisOutOfMemoryError,
  redisRefusalOf,
} from '@weak-queens/shared/contracts';

export interface RefusalRiding {
  readonly limitMs: number;
  readonly report?: (refusal: Error, what: string) => void;
  /** The first pause (default 500 ms), doubled up to 5 s. */
  readonly firstPauseMs?: number;
}

export async function rideRefusals<T>(
  what: string,
  write: () => Promise<T>,
  options: RefusalRiding,
): Promise<T> {
  const started = Date.now();
  let pauseMs = options.firstPauseMs ?? 500;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      const refusal = passingRefusal(err);
      if (!refusal || Date.now() - started + pauseMs > options.limitMs) {
        throw redisRefusalOf(err) ?? err;
      }
      options.report?.(refusal, what);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(5000, pauseMs * 2);
    }
  }
}

/** The refusal behind `err` when it may pass (out of memory, a full disk), else undefined. */
export function passingRefusal(err: unknown): RedisOutOfMemoryError | RedisDiskError | undefined {
  const refusal = redisRefusalOf(err);
  return refusal instanceof RedisOutOfMemoryError || refusal instanceof RedisDiskError
    ? refusal
    : undefined;
}
