// Fault tests that put one long unit in the queue by hand must record its plan first: workers
// count only units of a recorded plan. Here: the whole (n, D) as one DFS unit.
import type { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { planIdOf } from '@weak-queens/shared/contracts';
import { ResultStore } from '@weak-queens/shared/client';

/** Records the one-unit DFS plan of N(n, D) under `prefix`; returns its plan id. */
export async function recordOneUnitPlan(
  redisUrl: string,
  prefix: string,
  n: number,
  depth: number,
): Promise<string> {
  const header = { n, depth, role: 'primary', algorithm: 'dfs', units: 1 } as const;
  const planId = planIdOf(header, ['*']);
  const redis = new Redis(redisUrl);
  try {
    await new ResultStore(redis, prefix).putPlan(
      header,
      planId,
      new Map([['*', { weight: 1, modelSeconds: 4, boundSeconds: 600 }]]),
    );
  } finally {
    redis.disconnect();
  }
  return planId;
}

/**
 * Queues classic 16-queens as one DFS unit, N(16, 15) (Q(16) = 14772512), as job `n16-d15` with
 * one attempt, its plan recorded first: a few seconds of counting, long enough to signal or stop
 * a worker in the middle of it (Q(15) takes under a second now, too short to catch).
 */
export async function addLongUnit(
  queue: Queue,
  redisUrl: string,
  prefix: string,
  sweepId: string,
): Promise<Job> {
  const planId = await recordOneUnitPlan(redisUrl, prefix, 16, 15);
  const unit = {
    sweepId,
    n: 16,
    depth: 15,
    algorithm: 'dfs',
    prefix: [],
    weight: 1,
    estimateSeconds: 3,
    whole: true,
    planId,
  };
  return queue.add('unit', unit, { jobId: 'n16-d15', attempts: 1 });
}
