// Submitting an n is check-then-add (is its flow already queued? if not, add it), and two
// submitters of the same n at once, from the CLI, the dashboard and `npm start`, must not both
// see "not queued". Each n has a short-lived lock in Redis around that check and the add.
import { randomBytes } from 'node:crypto';
import type { RedisClient } from './connection.js';
import { RELEASE_SUBMIT_LOCK, TAKE_SUBMIT_LOCK } from './commands/index.js';
import type { StoreKeys } from '../contracts/index.js';

/**
 * Long enough for the largest flows' adds (about 10 s per 100,000 units); the lock of a
 * submitter that died (or lost Redis) mid-submit lapses after this.
 */
const LOCK_MS = 60_000;
const POLL_MS = 50;

export class SubmitLock {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
    /** Who holds the locks: the sweep id, so that a second try of one submission is the same owner. */
    private readonly owner: string = randomBytes(8).toString('hex'),
  ) {}

  /**
   * The lock of n if it is free now, or this owner's already (its release), else undefined:
   * nothing waited for. Taken as `acquire` takes it: a submission made again after a Redis
   * restart (its locks kept) takes its own locks back at once; with a token of its own each
   * time, it waited a minute for them to lapse.
   */
  async tryAcquire(n: number): Promise<(() => Promise<void>) | undefined> {
    const key = this.keys.submitLock(n);
    if ((await this.#take(key, this.owner)) !== 'OK') return undefined;
    return async () => {
      await this.#release(key, this.owner);
    };
  }

  /**
   * Waits for the locks of every n (taken in ascending n, so two submitters never wait for
   * each other in a circle) and returns the function that releases them.
   */
  async acquire(ns: readonly number[]): Promise<() => Promise<void>> {
    const token = this.owner;
    const held: string[] = [];
    const release = async (): Promise<void> => {
      await Promise.all(held.map((key) => this.#release(key, token)));
    };
    try {
      for (const n of [...new Set(ns)].sort((a, b) => a - b)) {
        const key = this.keys.submitLock(n);
        while ((await this.#take(key, token)) !== 'OK') {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        held.push(key);
      }
    } catch (err) {
      await release().catch(() => undefined);
      throw err;
    }
    return release;
  }

  /** 'OK' when the lock is taken (or kept, already this owner's), else null. */
  #take(lock: string, owner: string): Promise<unknown> {
    return TAKE_SUBMIT_LOCK.run(this.redis, { lock }, { owner, ttl: LOCK_MS });
  }

  #release(lock: string, owner: string): Promise<unknown> {
    return RELEASE_SUBMIT_LOCK.run(this.redis, { lock }, { owner });
  }
}
