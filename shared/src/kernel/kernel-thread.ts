// A slot of the kernel pool: runs one unit at a time on a worker thread, so the CPU-bound
// kernel never blocks the main thread (where BullMQ renews job locks, or a progress bar draws).
// Messages: in { unit }, out progress / done / error.
import { parentPort } from 'node:worker_threads';
import { WeakQueensError } from './errors.js';
import { countUnit, type WorkUnit } from './plan.js';

export type ThreadRequest = { readonly unit: WorkUnit };
export type ThreadReply =
  | { readonly type: 'progress'; readonly fraction: number }
  | { readonly type: 'done'; readonly value: string }
  | { readonly type: 'error'; readonly message: string; readonly retryable: boolean };

/** Progress messages are cheap but not free: at most one per interval. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * A unit estimated below this sends its first progress only after an interval, not at its
 * first step: it is done before anyone could watch, and each report becomes a Redis write on
 * the worker (two per unit were a tenth of a small sweep's commands). A longer unit says at
 * once that it is counting.
 */
const QUIET_UNIT_SECONDS = 0.05;

const port = parentPort;
if (port) {
  port.on('message', ({ unit }: ThreadRequest) => {
    let last = unit.estimate.seconds < QUIET_UNIT_SECONDS ? Date.now() : 0;
    try {
      const value = countUnit(unit, (fraction) => {
        const now = Date.now();
        if (now - last >= PROGRESS_INTERVAL_MS) {
          last = now;
          port.postMessage({ type: 'progress', fraction } satisfies ThreadReply);
        }
      });
      port.postMessage({ type: 'done', value: value.toString() } satisfies ThreadReply);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const retryable = !(err instanceof WeakQueensError) || err.retryable;
      port.postMessage({ type: 'error', message, retryable } satisfies ThreadReply);
    }
  });
}
