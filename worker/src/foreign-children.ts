// Which children of an aggregate job are not this pipeline's own: a forged flow (a `sum` whose
// children live in another queue or another prefix) is refused by name before anything is read.
import type { Job } from 'bullmq';
import { isCountQueue, QUEUE_NAMES } from '@weak-queens/shared/contracts';

/**
 * The children of an aggregate job that are not this pipeline's: in another queue (or another
 * prefix), or with an id no plan of this n makes. A forged flow's children are refused by name.
 */
export async function foreignChildren(job: Job, prefix: string, n: number): Promise<string[]> {
  const {
    processed = {},
    unprocessed = [],
    failed = [],
    ignored = {},
  } = await job.getDependencies();
  const ids = new RegExp(`^n${n}-d\\d{1,2}(-v)?(-p[0-9a-f]{12}-u\\d+)?$`);
  const keys = [...Object.keys(processed), ...unprocessed, ...failed, ...Object.keys(ignored)];
  return keys.filter((key) => {
    if (!key.startsWith(`${prefix}:`)) return true;
    const rest = key.slice(prefix.length + 1);
    const cut = rest.indexOf(':');
    const queue = rest.slice(0, cut);
    const id = rest.slice(cut + 1);
    return !(queue === QUEUE_NAMES.aggregate || isCountQueue(queue)) || !ids.test(id);
  });
}
