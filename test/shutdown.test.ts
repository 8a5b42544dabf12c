// SIGTERM during a unit: the worker hands it back within its grace period and another finishes it.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf } from '@weak-queens/producer';
import { QUEUE_NAMES } from '@weak-queens/shared';
import {
  deletePrefix,
  startTestRedis,
  startWorker,
  stopWorkers,
  type TestRedis,
  uniquePrefix,
} from './src/index.js';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('when a worker receives SIGTERM during a unit', () => {
  let redis: TestRedis;
  let prefix: string;
  let queue: Queue;

  beforeAll(async () => {
    redis = await startTestRedis();
    prefix = uniquePrefix('sigterm');
    queue = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
  });

  afterAll(async () => {
    await queue?.close();
    await deletePrefix(redis.url, prefix);
    await redis?.stop();
  });

  it('hands the unit back and a second worker finishes it exactly', async () => {
    // Classic 16-queens as one unit: Q(16) = 14772512, a few seconds of DFS (Q(15) now takes
    // under a second, too short to catch the worker in the middle).
    const job = await queue.add(
      'unit',
      {
        sweepId: 's-sigterm',
        n: 16,
        depth: 15,
        algorithm: 'dfs',
        prefix: [],
        weight: 1,
        estimateSeconds: 3,
        whole: true,
      },
      { jobId: 'n16-d15', attempts: 1 },
    );
    const first = startWorker({
      url: redis.url,
      prefix,
      env: { WQ_SHUTDOWN_GRACE_MS: '200' },
    });
    await until('the unit to start', async () => (await job.getState()) === 'active');
    await new Promise((r) => setTimeout(r, 500));
    const sent = Date.now();
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await queue.getJobState('n16-d15')).toBe('waiting');

    const second = startWorker({ url: redis.url, prefix });
    try {
      await until('the unit to complete', async () => (await job.getState()) === 'completed');
      const done = await queue.getJob('n16-d15');
      expect((done?.returnvalue as { value: string }).value).toBe('14772512');
      // Handing back spent no attempt: attempts = 1 would have failed it otherwise.
      expect(done?.attemptsMade).toBe(1);
    } finally {
      await stopWorkers([second]);
    }
  });
});
