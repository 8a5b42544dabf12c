// A command line that cannot be understood: a missing argument, an option without its value,
// options that exclude each other. Exit code 2, like every other bad input.
import { WeakQueensError } from '../kernel/errors.js';

export class UsageError extends WeakQueensError {
  readonly retryable = false;
}
