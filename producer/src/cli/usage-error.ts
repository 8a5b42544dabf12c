import { WeakQueensError } from '@weak-queens/shared/contracts';

/** A command line that cannot be understood (missing or extra arguments): exit code 2. */
export class UsageError extends WeakQueensError {
  readonly retryable = false;
}
