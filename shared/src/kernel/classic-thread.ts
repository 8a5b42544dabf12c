// A thread of ClassicThreads: counts classic units off the main thread (where BullMQ renews job
// locks). In: { units, method }, counted in turn; out: a `done` per unit as it is counted (its
// index in the list), or one `error`, after which the rest of the list is not counted.
import { parentPort } from 'node:worker_threads';
import { type ClassicMethod, type ClassicUnit, countClassicUnit } from './classic-units.js';
import { classicWasm } from './classic-wasm.js';

export type ClassicThreadRequest = {
  readonly units: readonly ClassicUnit[];
  readonly method: ClassicMethod;
};
export type ClassicThreadReply =
  | {
      readonly type: 'done';
      readonly index: number;
      readonly boards: string;
      readonly classes: string;
      /** When the thread started on the unit (epoch ms) and how long it took (seconds). */
      readonly startedAt: number;
      readonly seconds: number;
    }
  | { readonly type: 'error'; readonly index: number; readonly message: string };

const port = parentPort;
if (port) {
  // Compiled when the thread starts, not inside the first unit it counts.
  classicWasm();
  port.on('message', ({ units, method }: ClassicThreadRequest) => {
    for (const [index, unit] of units.entries()) {
      try {
        const startedAt = Date.now();
        const started = performance.now();
        const totals = countClassicUnit(unit, method);
        port.postMessage({
          type: 'done',
          index,
          boards: totals.boards.toString(),
          classes: totals.classes.toString(),
          startedAt,
          seconds: (performance.now() - started) / 1000,
        } satisfies ClassicThreadReply);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        port.postMessage({ type: 'error', index, message } satisfies ClassicThreadReply);
        return;
      }
    }
  });
}
