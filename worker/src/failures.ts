// How a processor error becomes a BullMQ outcome: non-retryable errors (invalid payloads,
// inconsistent children, a kernel limit) fail the job at once; anything else is retried.
import { bullmq } from '@weak-queens/shared/client';
import { KernelError, WeakQueensError } from '@weak-queens/shared/kernel';

export function asJobFailure(err: unknown): Error {
  if (err instanceof bullmq.UnrecoverableError) return err;
  if ((err instanceof WeakQueensError || err instanceof KernelError) && !err.retryable) {
    return new bullmq.UnrecoverableError(err.message);
  }
  return err instanceof Error ? err : new Error(String(err));
}
