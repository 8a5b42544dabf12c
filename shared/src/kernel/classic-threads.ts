// Threads that count classic units (see classic-units.ts): one unit per thread at a time,
// threads started on first use and kept, so a sweep of short units pays no start-up per unit.
import { Worker } from 'node:worker_threads';
import type { ClassicThreadReply, ClassicThreadRequest } from './classic-thread.js';
import {
  type ClassicMethod,
  type ClassicTotals,
  type ClassicUnit,
  classicUnits,
} from './classic-units.js';
import { InvalidInputError } from './errors.js';
import { KernelError } from './kernel-error.js';

export class ClassicThreads {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly waiting: ((thread: Worker) => void)[] = [];
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

  /** Counts one unit on a free thread (waits for one when all are busy). */
  async count(unit: ClassicUnit, method: ClassicMethod = 'pruned'): Promise<ClassicTotals> {
    const thread = await this.acquire();
    try {
      return await new Promise<ClassicTotals>((resolve, reject) => {
        const onExit = (code: number): void => {
          this.all.delete(thread);
          reject(new KernelError(`classic thread exited with code ${code}`, true));
        };
        thread.once('exit', onExit);
        thread.once('message', (reply: ClassicThreadReply) => {
          thread.off('exit', onExit);
          if (reply.type === 'error') reject(new KernelError(reply.message, false));
          else {
            resolve({
              boards: BigInt(reply.boards),
              classes: BigInt(reply.classes),
            });
          }
        });
        thread.postMessage({ unit, method } satisfies ClassicThreadRequest);
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

  private acquire(): Promise<Worker> {
    if (this.closed) return Promise.reject(new KernelError('classic threads are closed', true));
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.all.size < this.size) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private spawn(): Worker {
    const fresh = new Worker(this.script);
    this.all.add(fresh);
    return fresh;
  }

  private release(thread: Worker): void {
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
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
