// What a worker said when it failed a job: the tests that forge jobs wait for each to fail and
// check its reason.
import type { Queue } from 'bullmq';
import { until } from './wait.js';

/** The reason job `id` of `queue` failed with, once it has failed (within a minute). */
export async function failedReason(queue: Queue, id: string): Promise<string> {
  let reason = '';
  await until(
    `job ${id} to fail`,
    async () => {
      if ((await queue.getJobState(id)) !== 'failed') return false;
      reason = (await queue.getJob(id))?.failedReason ?? '';
      return true;
    },
    60_000,
  );
  return reason;
}
