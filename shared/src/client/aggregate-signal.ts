// Wakes a client that waits for results as soon as a job of `aggregate` finishes (a sum: an n
// is published, or failed), instead of at its next poll: `wq sweep --wait` would otherwise learn
// of the last result up to a poll interval (250 ms) late, which is a tenth of a Q(16). The
// poll stays the fallback: an event missed (a reconnect, a cluster, the stream trimmed) only
// costs the interval.
import type { QueueEvents } from 'bullmq';
import { bullmq } from './redis-libraries.js';
import { QUEUE_NAMES, type WqConfig } from '../contracts/index.js';
import { redisOptions } from './connection.js';
import { fulfilsWithin } from './fulfils-within.js';

/** How long a close may wait for Redis before the connection is cut. */
const CLOSE_MS = 1000;

export class AggregateSignal {
  private readonly events?: QueueEvents;
  /** Bumped by every finished job, so a job that finishes between two sleeps is not missed. */
  private finished = 0;
  private seen = 0;
  private wake?: () => void;

  constructor(config: WqConfig) {
    // A cluster client would need its own blocking connection per node: there, polls only.
    if (config.clusterNodes !== undefined) return;
    this.events = new bullmq.QueueEvents(QUEUE_NAMES.aggregate, {
      connection: redisOptions(config, 'worker'),
      prefix: config.prefix,
    });
    const finish = (): void => {
      this.finished += 1;
      this.wake?.();
    };
    this.events.on('completed', finish);
    this.events.on('failed', finish);
    // Connection trouble is the poll's to report; the events just stop helping meanwhile.
    this.events.on('error', () => undefined);
  }

  /** Waits `ms`, or less when a job of `aggregate` has finished since the last call. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        this.seen = this.finished;
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (this.finished !== this.seen) done();
      else this.wake = done;
    });
  }

  async close(): Promise<void> {
    this.wake?.();
    if (!this.events) return;
    // Its connection waits through outages (a blocking reader must): with Redis away, a
    // graceful close would wait for a reconnect that may never come, so it is cut instead.
    const closed = this.events.close().catch(() => undefined);
    // Not awaited either: a connection that never got back may never finish disconnecting.
    if (!(await fulfilsWithin(closed, CLOSE_MS))) this.events.disconnect().catch(() => undefined);
  }
}
