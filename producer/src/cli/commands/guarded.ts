// What the pipeline commands share: an error becomes one line on stderr with exit code 2 (bad
// input or configuration) or 1 (a sweep that failed, a Redis that stayed unreachable), before
// it reaches the dispatcher.
import { WeakQueensError } from '@weak-queens/shared/contracts';
import { SweepFailedError } from '@weak-queens/shared/client';
import { errorLine } from '../error-line.js';

export async function guarded(name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${errorLine(`wq ${name}`, message)}\n`);
    // Retrying may help (Redis away): the command failed, the command line was fine.
    if (err instanceof SweepFailedError) return 1;
    if (err instanceof WeakQueensError) return err.retryable ? 1 : 2;
    return 1;
  }
}
