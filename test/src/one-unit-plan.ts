// Fault tests that put one long unit in the queue by hand must record its plan first: workers
// count only units of a recorded plan. Here: the whole (n, D) as one DFS unit.
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
