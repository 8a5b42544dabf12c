// Carries a client (`wq sweep --wait`, `wq status --watch`, `npm start`, the dashboard) through a
// Redis restart or failover, as the workers are: a call that fails for want of Redis is made
// again until Redis answers, and only an outage longer than the bound (WQ_REDIS_OUTAGE_MS)
// ends in one RedisUnavailableError. The user hears of an outage once, when it starts.
import { isConnectionError, RedisUnavailableError } from '../contracts/redis-errors.js';

export interface OutageRiderOptions {
  /** REDIS_URL (redacted), for the error when the rider gives up. */
  readonly url: string;
  /** How long one outage may last before the rider gives up. */
  readonly boundMs: number;
  /** Called once per outage, with its first error. */
  readonly onOutage?: (err: Error) => void;
  /** Called once when Redis answers again, with how long it was away. */
  readonly onRecovered?: (downMs: number) => void;
  /** The pause between two tries during an outage (default 500 ms). */
  readonly retryMs?: number;
}

export class OutageRider {
  private since?: number;
  private attempts = 0;
  private firstReason?: string;

  constructor(private readonly options: OutageRiderOptions) {}

  /** True while Redis is away (between a failed call and the next one that went through). */
  get ongoing(): boolean {
    return this.since !== undefined;
  }

  /**
   * Runs `call` until it goes through. Only a lost connection is tried again; any other error
   * is thrown at once. `call` must be safe to repeat (a read, or a write that is idempotent).
   */
  async run<T>(call: () => Promise<T>, pause: (ms: number) => Promise<void> = sleep): Promise<T> {
    for (;;) {
      let value: T;
      try {
        value = await this.bounded(call());
      } catch (err) {
        this.failed(err);
        await pause(this.options.retryMs ?? 500);
        continue;
      }
      this.succeeded();
      return value;
    }
  }

  /**
   * During an outage a call may never settle (a BullMQ queue opened meanwhile waits for its
   * first connection forever): it is given only what is left of the bound.
   */
  private bounded<T>(promise: Promise<T>): Promise<T> {
    if (this.since === undefined) return promise;
    const left = Math.max(0, this.since + this.options.boundMs - Date.now());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new RedisUnavailableError(this.options.url, 'timeout', 'no answer while it was away'),
          ),
        left,
      );
    });
    promise.catch(() => undefined);
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * Records a failed call: throws `err` itself unless it says Redis is away, and a
   * RedisUnavailableError once the outage has lasted longer than the bound.
   */
  failed(err: unknown): void {
    if (!isConnectionError(err)) throw err;
    const now = Date.now();
    this.attempts += 1;
    if (this.since === undefined) {
      this.since = now;
      this.attempts = 1;
      this.firstReason = outageReason(err);
      this.options.onOutage?.(err as Error);
    }
    const ms = now - this.since;
    if (ms >= this.options.boundMs) {
      this.since = undefined;
      // The reason the outage began with: what came after (timeouts) says less.
      throw new RedisUnavailableError(this.options.url, 'unreachable', this.firstReason ?? '', {
        attempts: this.attempts,
        ms,
      });
    }
  }

  /** Records a call that went through: the outage, if there was one, is over. */
  succeeded(): void {
    if (this.since === undefined) return;
    const downMs = Date.now() - this.since;
    this.since = undefined;
    this.options.onRecovered?.(downMs);
  }
}

/** What went wrong, in a few words: ioredis's "max retries per request" says only that. */
export function outageReason(err: unknown): string {
  if (err instanceof RedisUnavailableError) return err.detail;
  const message = err instanceof Error ? err.message : String(err);
  if (/max retries per request/i.test(message)) return 'the connection was lost';
  return (message.split('\n')[0] ?? '').slice(0, 200);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
