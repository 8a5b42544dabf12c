// The fault tests freeze, kill or cut the worker in the middle of N(14, 8), which they need to
// be one unit (about 0.2 s of window transfer). The DFS counts it a little faster than the window
// transfer since it uses the full symmetry group, so `auto` would split it into DFS units of
// milliseconds; a stored calibration that says the DFS runs 2× slower than modelled keeps the
// transfer's single unit.
import { Redis } from 'ioredis';
import { storeKeys } from '@weak-queens/shared/contracts';
import type { Algorithm } from '@weak-queens/shared/kernel';

export function keepTransferAt14x8(redisUrl: string, prefix: string): Promise<void> {
  return storeCalibration(redisUrl, prefix, { dfs: 2 });
}

/**
 * Stores a calibration that says each named algorithm runs `ratio` times its modelled time (10
 * units, 10 model seconds: enough measured time for the planner to apply it), so the next plan
 * prefers or avoids an algorithm by that much.
 */
export async function storeCalibration(
  redisUrl: string,
  prefix: string,
  ratios: Partial<Record<Algorithm, number>>,
): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const fields: Record<string, number> = {};
    for (const [algorithm, ratio] of Object.entries(ratios)) {
      fields[`${algorithm}:units`] = 10;
      fields[`${algorithm}:model`] = 10;
      fields[`${algorithm}:actual`] = 10 * ratio;
    }
    await redis.hset(storeKeys(prefix).calibration, fields);
  } finally {
    await redis.quit();
  }
}
