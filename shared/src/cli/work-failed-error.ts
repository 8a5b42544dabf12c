// The base of errors that say the work itself failed (a unit, a sweep), not the input: trying
// the same command again cannot help, yet the command line was fine, so the exit code is 1.
import { WeakQueensError } from '../kernel/errors.js';

export abstract class WorkFailedError extends WeakQueensError {
  readonly retryable = false;
}
