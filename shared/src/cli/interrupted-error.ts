// Thrown where a run stops because it was asked to (Ctrl-C, SIGTERM, SIGHUP): exit code 130.
import { WeakQueensError } from '../kernel/errors.js';

export class InterruptedError extends WeakQueensError {
  readonly retryable = false;
  constructor(readonly signal?: string) {
    super(signal ? `interrupted by ${signal}` : 'interrupted');
  }
}
