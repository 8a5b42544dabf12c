// Which children of an aggregate job are not this pipeline's own: a forged flow (a `sum` whose
// children live in another queue or another prefix) is refused by name before anything is read.
import type { Job } from 'bullmq';
import { isCountQueue, QUEUE_NAMES } from '@weak-queens/shared/contracts';

/**
 * The children of an aggregate job that are not this pipeline's: in another queue or another
 * prefix. A forged flow's children are refused by name.
 */
export async function foreignChildren(job: Job, prefix: string): Promise<string[]> {
  const {
    processed = {},
    unprocessed = [],
    failed = [],
    ignored = {},
  } = await job.getDependencies();
  const keys = [...Object.keys(processed), ...unprocessed, ...failed, ...Object.keys(ignored)];
  // A child in this pipeline's own queues cannot change a value (the sums read the store), so
  // a second delivery of a unit under another id is tolerated; any other queue or prefix is not.
  return keys.filter((key) => {
    if (!key.startsWith(`${prefix}:`)) return true;
    const rest = key.slice(prefix.length + 1);
    const queue = rest.slice(0, rest.indexOf(':'));
    return !(queue === QUEUE_NAMES.aggregate || isCountQueue(queue));
  });
}
