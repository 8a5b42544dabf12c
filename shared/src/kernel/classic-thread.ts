// A thread of ClassicThreads: counts one classic unit at a time off the main thread (where
// BullMQ renews job locks). Messages: in { unit, method }, out done / error.
import { parentPort } from 'node:worker_threads';
import { type ClassicMethod, type ClassicUnit, countClassicUnit } from './classic-units.js';
import { classicWasm } from './classic-wasm.js';

export type ClassicThreadRequest = {
  readonly unit: ClassicUnit;
  readonly method: ClassicMethod;
};
export type ClassicThreadReply =
  | {
      readonly type: 'done';
      readonly boards: string;
      readonly classes: string;
    }
  | { readonly type: 'error'; readonly message: string };

const port = parentPort;
if (port) {
  // Compiled when the thread starts, not inside the first unit it counts.
  classicWasm();
  port.on('message', ({ unit, method }: ClassicThreadRequest) => {
    try {
      const totals = countClassicUnit(unit, method);
      port.postMessage({
        type: 'done',
        boards: totals.boards.toString(),
        classes: totals.classes.toString(),
      } satisfies ClassicThreadReply);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      port.postMessage({ type: 'error', message } satisfies ClassicThreadReply);
    }
  });
}
