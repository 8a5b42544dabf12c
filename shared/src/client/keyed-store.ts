// What every Redis-backed store of the client has: its connection and its key layout under the
// pipeline's prefix (see contracts/store-keys.ts and classic-jobs.ts).
import type { RedisClient } from './connection.js';

export abstract class KeyedStore<K> {
  protected constructor(
    protected readonly redis: RedisClient,
    readonly keys: K,
  ) {}
}
