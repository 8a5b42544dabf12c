// The producer's errors (the shared ones are in @weak-queens/shared: the kernel's, Redis's and the
// client's): each says what happened, and its base class gives the exit code.
import { WeakQueensError, WorkFailedError } from '@weak-queens/shared/process';
import type { WorkUnit } from '@weak-queens/shared/kernel';

/** `wq compute`: a work unit that could not be counted (in a thread, or the thread itself died). */
export class UnitFailedError extends WorkFailedError {
  constructor(
    readonly unit: WorkUnit,
    readonly reason: string,
  ) {
    super(
      `unit n=${unit.n} D=${unit.depth} ${unit.algorithm} prefix [${unit.prefix.join(',')}] failed: ${reason}`,
    );
  }
}

/** The dashboard is not installed or not built. */
export class DashboardMissingError extends WeakQueensError {
  readonly retryable = false;
}

/** `npm start`'s data directory is held by another live run. */
export class DataDirBusyError extends WeakQueensError {
  readonly retryable = false;
}
