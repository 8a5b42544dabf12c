// The fault tests freeze, kill or cut the worker in the middle of N(14, 8), which they need to
// be one unit (about 0.2 s of window transfer). The DFS counts it a little faster than the window
// transfer since it uses the full symmetry group, so `auto` would split it into DFS units of
// milliseconds; a stored calibration that says the DFS runs 2× slower than modelled keeps the
// transfer's single unit.
import { Redis } from 'ioredis';
import { storeKeys } from '@weak-queens/shared/contracts';

export function keepTransferAt14x8(redisUrl: string, prefix: string): Promise<void> {
  return calibrateDfsSlower(redisUrl, prefix, 2);
}

/**
 * Stores a calibration that says the DFS runs `factor` times slower than modelled, so that the
 * next plan prefers the window transfer (one unit per D) wherever it is within that factor.
 */
export async function calibrateDfsSlower(
  redisUrl: string,
  prefix: string,
  factor: number,
): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await redis.hset(storeKeys(prefix).calibration, {
      'dfs:units': 10,
      'dfs:model': 1,
      'dfs:actual': factor,
    });
  } finally {
    await redis.quit();
  }
}
