// What the pipeline commands share: an error becomes one line on stderr with exit code 2 (bad
// input, unreachable Redis) or 1 (a sweep that failed), before it reaches the dispatcher.
import { WeakQueensError } from '@weak-queens/shared';
import { SweepFailedError } from '../../pipeline/sweep-failed-error.js';

export async function guarded(name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof SweepFailedError) {
      process.stderr.write(`wq ${name}: ${err.message}\n`);
      return 1;
    }
    if (err instanceof WeakQueensError) {
      process.stderr.write(`wq ${name}: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`wq ${name}: ${message}\n`);
    return 1;
  }
}
