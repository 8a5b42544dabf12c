// What every Redis-backed store of the client has: its connection and its key layout under the
// pipeline's prefix (see contracts/store-keys.ts and classic-jobs.ts).
import type { RedisClient } from './connection.js';

export abstract class KeyedStore<K> {
  protected constructor(
    protected readonly redis: RedisClient,
    readonly keys: K,
  ) {}

  /**
   * Whether `hash` has a field for every n, whatever it holds: one command, nothing checked. A
   * hint that a full read may now find every result, never a result itself.
   */
  protected async holdsEvery(hash: string, ns: readonly number[]): Promise<boolean> {
    if (ns.length === 0) return true;
    return (await this.redis.hmget(hash, ...ns.map(String))).every((value) => value !== null);
  }
}
