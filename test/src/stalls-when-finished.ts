// How often a job was put back by stall detection, read the moment it finishes.
import type { Queue } from 'bullmq';
import { until } from './wait.js';

/**
 * Waits for job `jobId` of `queue` to finish (`what` names the wait in a timeout) and resolves
 * to its stall count. Read at once: later jobs may push it out of the kept completed jobs.
 */
export async function stallsWhenFinished(
  queue: Queue,
  jobId: string,
  what: string,
): Promise<number> {
  let stalled = 0;
  await until(what, async () => {
    const job = await queue.getJob(jobId);
    if (!job?.finishedOn) return false;
    stalled = job.stalledCounter;
    return true;
  });
  return stalled;
}
