// The retry policy of every job a planner puts in a flow, weak or classic, so the two flows
// cannot drift apart: finished jobs kept as JOB_RETENTION says, `attempts` tries with
// exponential backoff for transient errors.
import type { JobsOptions } from 'bullmq';
import { JOB_RETENTION } from '../contracts/queues.js';

/** The options of a flow's top job (the sum of one n). */
export function flowJobRetry(attempts: number): JobsOptions {
  return { ...JOB_RETENTION, attempts, backoff: { type: 'exponential', delay: 1000 } };
}

/** The options of a job below the sum, which it fails too when it fails for good. */
export function childJobRetry(attempts: number): JobsOptions {
  // A failed part makes its sum fail too, so `wq status` shows the n as failed.
  return { ...flowJobRetry(attempts), failParentOnFailure: true };
}
