// A fixed pool of worker threads that counts work units, most expensive first, while keeping the
// estimated memory of the units running at once under a budget.
import { Worker } from 'node:worker_threads';
import { DEFAULT_MAX_BYTES, type WorkUnit } from '@weak-queens/shared/kernel';
import { InvalidInputError } from '@weak-queens/shared/contracts';
import { UnitFailedError } from './unit-failed-error.js';
import type { CountRequest, UnitReply, UnitThreadData } from './unit-messages.js';
import type { UnitEvents, UnitRunner } from './unit-runner.js';

export interface UnitPoolOptions {
  readonly threads: number;
  /**
   * Largest sum of estimated peak bytes of the units running at once (default 1 GiB, the same
   * cap `auto` uses for one unit), so two big transfer tables never run side by side.
   */
  readonly memoryBudget?: number;
  /** Ask threads for progress messages. */
  readonly progress?: boolean;
}

interface Slot {
  readonly worker: Worker;
  /** Index into the batch of the unit it is counting, or -1 when idle. */
  running: number;
}

export class UnitPool implements UnitRunner {
  private readonly slots: Slot[];
  private readonly memoryBudget: number;
  private closed = false;

  constructor(options: UnitPoolOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) {
      throw new InvalidInputError('threads', options.threads, 'an integer ≥ 1');
    }
    this.memoryBudget = options.memoryBudget ?? DEFAULT_MAX_BYTES;
    const workerData: UnitThreadData = { progress: options.progress ?? false };
    // Resolved next to this file, so it finds dist/compute/unit-thread.js once built.
    const entry = new URL('./unit-thread.js', import.meta.url);
    this.slots = Array.from({ length: options.threads }, () => ({
      worker: new Worker(entry, { workerData }),
      running: -1,
    }));
  }

  run(units: readonly WorkUnit[], events: UnitEvents): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the unit pool is closed'));
    // Largest first: the long units start early and the small ones fill the gaps at the end.
    const queue = units
      .map((_, index) => index)
      .sort((a, b) => (units[b]?.estimate.seconds ?? 0) - (units[a]?.estimate.seconds ?? 0));
    let remaining = units.length;
    let runningBytes = 0;

    return new Promise<void>((resolve, reject) => {
      const cleanups: Array<() => void> = [];
      let settled = false;
      const finish = (error?: Error): void => {
        if (settled) return;
        settled = true;
        for (const cleanup of cleanups) cleanup();
        if (error) reject(error);
        else resolve();
      };

      const bytesOf = (index: number): number => units[index]?.estimate.bytes ?? 0;

      /** Hands queued units to idle threads while the memory budget allows. */
      const dispatch = (): void => {
        for (const slot of this.slots) {
          if (slot.running >= 0 || queue.length === 0) continue;
          const busy = this.slots.some((s) => s.running >= 0);
          let pick = queue.findIndex((i) => runningBytes + bytesOf(i) <= this.memoryBudget);
          // A unit larger than the whole budget still runs, alone.
          if (pick < 0 && !busy) pick = 0;
          if (pick < 0) return;
          const [index] = queue.splice(pick, 1);
          const unit = index === undefined ? undefined : units[index];
          if (index === undefined || !unit) return;
          slot.running = index;
          runningBytes += bytesOf(index);
          const request: CountRequest = { type: 'count', id: index, unit };
          slot.worker.postMessage(request);
        }
      };

      for (const slot of this.slots) {
        const onMessage = (reply: UnitReply): void => {
          const unit = units[reply.id];
          if (!unit || settled) return;
          if (reply.type === 'progress') {
            events.onProgress?.(reply.id, reply.fraction);
            return;
          }
          slot.running = -1;
          runningBytes -= bytesOf(reply.id);
          if (reply.type === 'failed') {
            finish(new UnitFailedError(unit, reply.message));
            return;
          }
          events.onDone(reply.id, BigInt(reply.count));
          if (--remaining === 0) finish();
          else dispatch();
        };
        const onError = (error: Error): void => {
          const unit = units[slot.running];
          finish(unit ? new UnitFailedError(unit, error.message) : error);
        };
        const onExit = (code: number): void => {
          const unit = units[slot.running];
          const reason = `its thread exited with code ${code}`;
          finish(unit ? new UnitFailedError(unit, reason) : new Error(`a thread ${reason}`));
        };
        slot.worker.on('message', onMessage);
        slot.worker.on('error', onError);
        slot.worker.on('exit', onExit);
        cleanups.push(() => {
          slot.worker.off('message', onMessage);
          slot.worker.off('error', onError);
          slot.worker.off('exit', onExit);
        });
      }

      if (remaining === 0) finish();
      else dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}
