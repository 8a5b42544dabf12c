// Threads that count classic units (see classic-units.ts): one request (a unit, or a batch
// counted in turn) per thread at a time, threads started on first use and kept, so a sweep of
// short units pays no start-up per unit.
// Each thread has a fixed index (0 … size − 1, a dead thread's successor takes over its index),
// so a unit can say which thread ran it: the dashboard's timeline draws one lane per index.
import { Worker } from 'node:worker_threads';
import type { ClassicThreadReply, ClassicThreadRequest } from './classic-thread.js';
import {
  type ClassicMethod,
  type ClassicTotals,
  type ClassicUnit,
  classicUnits,
} from './classic-units.js';
import { InvalidInputError, KernelError } from './errors.js';

/** A counted unit, when and how long the thread counted it, and which thread it was. */
export interface ClassicRun extends ClassicTotals {
  /** 0 … size − 1. */
  readonly slot: number;
  /** When the thread started on it (epoch ms). */
  readonly startedAt: number;
  /** The thread's time on it, in seconds. */
  readonly seconds: number;
}

interface ClassicThread {
  readonly index: number;
  readonly worker: Worker;
}

export class ClassicThreads {
  private readonly idle: ClassicThread[] = [];
  private readonly all = new Set<ClassicThread>();
  private readonly waiting: ((thread: ClassicThread) => void)[] = [];
  private closed = false;

  constructor(
    private readonly size: number,
    // Resolved next to this file, so it finds dist/kernel/classic-thread.js once built.
    private readonly script: URL = new URL('./classic-thread.js', import.meta.url),
  ) {
    if (!Number.isInteger(size) || size < 1) {
      throw new InvalidInputError('size', size, 'a whole number of threads ≥ 1');
    }
  }

  /**
   * Starts every thread now rather than on first use, so that a worker's first classic unit
   * does not pay for a thread and its module (a long-lived worker calls this when it starts).
   */
  warm(): void {
    while (!this.closed && this.all.size < this.size) this.idle.push(this.spawn());
  }

  /** Counts one unit on a free thread (waits for one when all are busy). */
  async count(unit: ClassicUnit, method: ClassicMethod = 'pruned'): Promise<ClassicRun> {
    let counted: ClassicRun | undefined;
    await this.countEach([unit], method, (_, run) => {
      counted = run;
    });
    return counted as ClassicRun;
  }

  /**
   * Counts `units` in turn on one free thread, handing each to `onUnit` as soon as it is
   * counted (a batch: the thread goes from one unit to the next without a round trip through
   * this thread). Rejects at the first unit that fails; the rest are not counted.
   */
  async countEach(
    units: readonly ClassicUnit[],
    method: ClassicMethod,
    onUnit: (index: number, run: ClassicRun) => void,
  ): Promise<void> {
    if (units.length === 0) return;
    const thread = await this.acquire();
    const { worker } = thread;
    try {
      await new Promise<void>((resolve, reject) => {
        let left = units.length;
        let failed: Error | undefined;
        const stop = (): void => {
          worker.off('exit', onExit);
          worker.off('message', onMessage);
        };
        const onExit = (code: number): void => {
          stop();
          this.all.delete(thread);
          reject(new KernelError(`classic thread exited with code ${code}`, true));
        };
        const onMessage = (reply: ClassicThreadReply): void => {
          if (reply.type === 'error') {
            stop();
            reject(new KernelError(reply.message, false));
            return;
          }
          try {
            onUnit(reply.index, {
              boards: BigInt(reply.boards),
              classes: BigInt(reply.classes),
              slot: thread.index,
              startedAt: reply.startedAt,
              seconds: reply.seconds,
            });
          } catch (err) {
            // The thread goes on with the list: its replies are awaited before it is released.
            failed ??= err instanceof Error ? err : new KernelError(String(err), false);
          }
          if (--left === 0) {
            stop();
            if (failed === undefined) resolve();
            else reject(failed);
          }
        };
        worker.on('exit', onExit);
        worker.on('message', onMessage);
        worker.postMessage({ units, method } satisfies ClassicThreadRequest);
      });
    } finally {
      this.release(thread);
    }
  }

  /** Q(n) and the classes over every unit, the units spread over the threads. */
  async totals(n: number, method: ClassicMethod = 'pruned'): Promise<ClassicTotals> {
    const parts = await Promise.all(classicUnits(n).map((unit) => this.count(unit, method)));
    return {
      boards: parts.reduce((t, p) => t + p.boards, 0n),
      classes: parts.reduce((t, p) => t + p.classes, 0n),
    };
  }

  private acquire(): Promise<ClassicThread> {
    if (this.closed) return Promise.reject(new KernelError('classic threads are closed', true));
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.all.size < this.size) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A new thread on the lowest index no live thread has. */
  private spawn(): ClassicThread {
    const taken = new Set([...this.all].map((t) => t.index));
    let index = 0;
    while (taken.has(index)) index++;
    const fresh = { index, worker: new Worker(this.script) };
    this.all.add(fresh);
    // A thread that dies while idle must not be handed a unit it would never answer.
    fresh.worker.once('exit', () => {
      this.all.delete(fresh);
      const at = this.idle.indexOf(fresh);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return fresh;
  }

  private release(thread: ClassicThread): void {
    if (this.closed) return;
    const next = this.waiting.shift();
    if (!this.all.has(thread)) {
      // It died: a waiting caller gets a fresh one in its place.
      if (next) next(this.spawn());
      return;
    }
    if (next) next(thread);
    else this.idle.push(thread);
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
