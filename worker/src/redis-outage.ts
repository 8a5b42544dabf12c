// A worker that cannot reach Redis waits calmly: every connection reports its failed reconnects
// here, and the log gets one line when the outage starts, at most one per interval while it
// lasts, and one when Redis answers again (instead of a warning per attempt per connection).
import type { Logger } from '@weak-queens/shared/client';

export class RedisOutage {
  private since?: number;
  private lastLogAt = 0;
  private errorsSinceLog = 0;

  constructor(
    private readonly logger: Logger,
    /** The shortest time between two lines about one outage. */
    private readonly everyMs: number,
  ) {}

  get ongoing(): boolean {
    return this.since !== undefined;
  }

  /** A connection error or a failed probe: Redis is away (still). */
  report(err: unknown, source: string): void {
    const now = Date.now();
    this.errorsSinceLog += 1;
    if (this.since === undefined) {
      this.since = now;
      this.lastLogAt = now;
      this.errorsSinceLog = 0;
      this.logger.warn(
        { ...summary(err), source, nextNoteMs: this.everyMs },
        'cannot reach Redis; waiting for it',
      );
      return;
    }
    if (now - this.lastLogAt < this.everyMs) return;
    this.logger.warn(
      { ...summary(err), source, downMs: now - this.since, failures: this.errorsSinceLog },
      'still cannot reach Redis; waiting for it',
    );
    this.lastLogAt = now;
    this.errorsSinceLog = 0;
  }

  /** A command went through: the outage, if there was one, is over. */
  recovered(): void {
    if (this.since === undefined) return;
    this.logger.info({ downMs: Date.now() - this.since }, 'Redis reachable again');
    this.since = undefined;
    this.errorsSinceLog = 0;
  }
}

/** The message alone: a stack per reconnect attempt says nothing new. */
function summary(err: unknown): { reason: string; code?: string } {
  const reason = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === undefined ? { reason } : { reason, code };
}
