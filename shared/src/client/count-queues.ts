// The count queues a client reads and writes: `count` and the memory-class queues producers
// have used (listed in Redis, see `countClassesKey`), each opened once, when first needed.
import type { Queue, QueueOptions } from 'bullmq';
import { bullmq } from './redis-libraries.js';
import type { RedisClient } from './connection.js';
import {
  countClassesKey,
  countQueueClass,
  countQueueNames,
  QUEUE_NAMES,
} from '../contracts/index.js';

export class CountQueues {
  private readonly opened = new Map<string, Queue>();

  constructor(
    private readonly redis: RedisClient,
    private readonly options: QueueOptions & { readonly prefix: string },
    /** Called once per queue opened (to attach an error listener). */
    private readonly onOpen: (queue: Queue) => void = () => undefined,
  ) {}

  /** The queue of this name (`count` or a class queue), opened on first use. */
  get(name: string = QUEUE_NAMES.count): Queue {
    let queue = this.opened.get(name);
    if (!queue) {
      if (countQueueClass(name) === undefined) {
        throw new Error(
          `count queue: ${name} is not "${QUEUE_NAMES.count}" nor a class queue such as ${QUEUE_NAMES.count}@2GiB`,
        );
      }
      queue = new bullmq.Queue(name, this.options);
      this.onOpen(queue);
      this.opened.set(name, queue);
    }
    return queue;
  }

  /** Every count queue in use: `count`, then the class queues by size. */
  async names(): Promise<string[]> {
    return countQueueNames(await this.redis.smembers(countClassesKey(this.options.prefix)));
  }

  async all(): Promise<Queue[]> {
    return (await this.names()).map((name) => this.get(name));
  }

  /** Lists the class queues among `names` (before units are added to them). */
  async register(names: Iterable<string>): Promise<void> {
    const classes = [...new Set(names)].filter((q) => (countQueueClass(q) ?? 0) > 0);
    if (classes.length > 0) await this.redis.sadd(countClassesKey(this.options.prefix), ...classes);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.opened.values()].map((q) => q.close()));
  }
}
