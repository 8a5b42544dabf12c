// Worker-thread entry of the unit pool: counts one unit per request and replies with the count.
import { parentPort, workerData } from 'node:worker_threads';
import { countUnit, WeakQueensError } from '@weak-queens/shared/kernel';
import type { CountRequest, UnitReply, UnitThreadData } from './unit-messages.js';

/** Progress messages per unit are capped so the main thread is never flooded. */
const PROGRESS_EVERY_MS = 100;

const port = parentPort;
if (!port) throw new Error('unit-thread.js runs only as a worker thread');
const { progress } = workerData as UnitThreadData;

port.on('message', (request: CountRequest) => {
  const { id, unit } = request;
  let lastPost = 0;
  const onProgress = progress
    ? (fraction: number): void => {
        const now = Date.now();
        if (now - lastPost < PROGRESS_EVERY_MS) return;
        lastPost = now;
        reply({ type: 'progress', id, fraction });
      }
    : undefined;
  try {
    reply({ type: 'done', id, count: countUnit(unit, onProgress).toString() });
  } catch (error) {
    reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
    // Other WeakQueensErrors are expected failures; anything else is a bug worth a trace.
    if (!(error instanceof WeakQueensError) && error instanceof Error && process.env.WQ_DEBUG) {
      process.stderr.write(`${error.stack}\n`);
    }
  }
});

function reply(message: UnitReply): void {
  port?.postMessage(message);
}
