// A fixed set of worker threads that run kernel units, one unit per thread at a time.
import { Worker } from 'node:worker_threads';
import type { WorkUnit } from '@weak-queens/shared';
import { HandBackError } from './hand-back-error.js';
import { KernelError } from './kernel-error.js';
import type { ThreadReply } from './kernel-thread.js';

interface Slot {
  /** Its place in the pool, 0 … size − 1: a replaced thread takes the lowest free one. */
  readonly index: number;
  readonly thread: Worker;
  busy: boolean;
  /** Rejects the running unit (hand-back or a dead thread). */
  abort?: (err: Error) => void;
}

/** A counted unit and the slot that counted it (the dashboard's timeline draws one lane per slot). */
export interface KernelRun {
  readonly value: bigint;
  readonly slot: number;
}

export class KernelPool {
  private readonly slots = new Set<Slot>();
  private closed = false;

  constructor(
    readonly size: number,
    private readonly script: URL = new URL('./kernel-thread.js', import.meta.url),
  ) {}

  /**
   * Counts one unit on a free thread (there is always one: BullMQ concurrency = pool size).
   * With `boundSeconds`, a unit still running after that long is stopped (its thread is
   * terminated) and rejected with a non-retryable KernelError that says so.
   */
  run(
    unit: WorkUnit,
    onProgress: (fraction: number) => void,
    options: { boundSeconds?: number } = {},
  ): Promise<KernelRun> {
    if (this.closed) return Promise.reject(new HandBackError());
    const slot = this.acquire();
    return new Promise<KernelRun>((resolve, reject) => {
      const bound = options.boundSeconds;
      // setTimeout holds at most 2^31 − 1 ms (24.8 days); a longer bound is no bound here.
      const timer =
        bound === undefined || bound * 1000 > 2 ** 31 - 1
          ? undefined
          : setTimeout(() => {
              this.slots.delete(slot);
              slot.abort?.(
                new KernelError(
                  `the unit ran past its work bound of ${bound} s (its plan's estimate ` +
                    `allows no more); stopped`,
                  false,
                ),
              );
              void slot.thread.terminate();
            }, bound * 1000);
      const finish = (): void => {
        if (timer) clearTimeout(timer);
        slot.thread.off('message', onMessage);
        slot.busy = false;
        slot.abort = undefined;
      };
      const onMessage = (reply: ThreadReply): void => {
        if (reply.type === 'progress') return onProgress(reply.fraction);
        finish();
        if (reply.type === 'done') resolve({ value: BigInt(reply.value), slot: slot.index });
        else reject(new KernelError(reply.message, reply.retryable));
      };
      slot.abort = (err) => {
        finish();
        reject(err);
      };
      slot.thread.on('message', onMessage);
      slot.thread.postMessage({ unit });
    });
  }

  /** Stops every running unit now; their promises reject with HandBackError. */
  async handBack(): Promise<void> {
    const busy = [...this.slots].filter((s) => s.busy);
    for (const slot of busy) {
      this.slots.delete(slot);
      slot.abort?.(new HandBackError());
    }
    await Promise.all(busy.map((s) => s.thread.terminate()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.handBack();
    const idle = [...this.slots];
    this.slots.clear();
    await Promise.all(idle.map((s) => s.thread.terminate()));
  }

  private acquire(): Slot {
    for (const slot of this.slots) {
      if (!slot.busy) {
        slot.busy = true;
        return slot;
      }
    }
    const taken = new Set([...this.slots].map((s) => s.index));
    let index = 0;
    while (taken.has(index)) index++;
    const slot: Slot = { index, thread: new Worker(this.script), busy: true };
    slot.thread.on('error', (err) => {
      this.slots.delete(slot);
      slot.abort?.(new KernelError(`kernel thread crashed: ${err.message}`, true));
    });
    slot.thread.on('exit', (code) => {
      if (this.slots.delete(slot)) {
        slot.abort?.(new KernelError(`kernel thread exited with code ${code}`, true));
      }
    });
    this.slots.add(slot);
    return slot;
  }
}
