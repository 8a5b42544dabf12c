// What a processor test runs against: a private Redis, the result store in it under the test
// file's key prefix, and the queue its jobs come from (real BullMQ jobs, never mocks).
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { ResultStore } from '@weak-queens/shared/client';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';

export interface ProcessorFixture {
  /** The result store (once beforeAll has run). */
  readonly store: ResultStore;
  /** The queue of `queueName` (once beforeAll has run). */
  readonly queue: Queue;
  /** The store's connection, to change records as no store method would (once beforeAll has run). */
  readonly redis: Redis;
}

/**
 * Registers the hooks of a processor test file: its Redis, store and queue opened before the
 * file's tests and closed after them. Registered first, they close last, after the file's own.
 */
export function processorFixture(queueName: string, prefix: string): ProcessorFixture {
  let server: PrivateRedis | undefined;
  let redis: Redis | undefined;
  let store: ResultStore | undefined;
  let queue: Queue | undefined;
  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new Redis({ port: server.port });
    store = new ResultStore(redis, prefix);
    queue = new Queue(queueName, { connection: { port: server.port }, prefix });
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await server?.stop();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the processor fixture is used before beforeAll');
    return value;
  };
  return {
    get store() {
      return opened(store);
    },
    get queue() {
      return opened(queue);
    },
    get redis() {
      return opened(redis);
    },
  };
}
