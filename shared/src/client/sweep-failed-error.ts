// Thrown by `waitFor` when a sweep cannot finish.
import { WorkFailedError } from '../kernel/errors.js';

/** A sweep cannot finish: one of its n failed or was removed. Exit code 1 (failed work). */
export class SweepFailedError extends WorkFailedError {
  constructor(
    readonly sweepId: string,
    readonly n: number,
    readonly reason: string,
  ) {
    super(`sweep ${sweepId}: n=${n} cannot finish: ${reason} (see wq status; wq retry ${sweepId})`);
  }
}
