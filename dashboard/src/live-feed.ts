// Server-Sent Events for the page: one poll loop reads Redis for every open page together (never
// one loop per page), runs only while a page is open, and pushes a snapshot only when it changed.
// A page that stops reading is cut after a deadline, and a full feed makes room for a newcomer
// rather than turning it away. The JSON API reads through latest(), so API calls within one poll
// period cost no extra reads.
import type { ServerResponse } from 'node:http';
import type { Logger } from '@weak-queens/shared/client';
import { FeedClient, staler } from './feed-client.js';
import type { Snapshot } from './snapshot.js';

export interface LiveFeedOptions {
  readonly read: () => Promise<Snapshot>;
  readonly pollMs: number;
  readonly logger: Logger;
  /** Open streams at once (each holds a connection); a newcomer beyond it evicts the stalest. */
  readonly maxClients: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  readonly keepAliveMs: number;
  /** How long a socket that does not take data may keep its stream before it is cut. */
  readonly drainTimeoutMs: number;
}

/** The latest snapshot read: `key` (its content without the read time) tells a change. */
interface Latest {
  readonly snapshot: Snapshot;
  readonly key: string;
  readonly chunk: string;
  readonly at: number;
}

export class LiveFeed {
  private readonly clients = new Set<FeedClient>();
  private timer?: NodeJS.Timeout;
  private looping = false;
  private inFlight?: Promise<Snapshot>;
  private last?: Latest;
  private closed = false;
  /** Redis reads made so far (tests check that pages share them). */
  reads = 0;
  /** Snapshot events written, counted per stream. */
  snapshotsSent = 0;
  /** Streams cut because their socket did not drain in time, and streams evicted for room. */
  readonly dropped = { stalled: 0, evicted: 0 };

  constructor(private readonly options: LiveFeedOptions) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /**
   * Opens a stream on `res`. At the limit it evicts the stalest stream the newcomer may evict
   * (an anonymous page never evicts an operator); false only when there is none (the caller
   * answers 503) or the feed is closed.
   */
  add(res: ServerResponse, who: { readonly operator: boolean }): boolean {
    if (this.closed) return false;
    if (this.clients.size >= this.options.maxClients) {
      const victim = this.victim(who.operator);
      if (!victim) return false;
      this.drop(victim, 'evicted');
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const client = new FeedClient(res, {
      operator: who.operator,
      drainTimeoutMs: this.options.drainTimeoutMs,
      onStall: (c) => this.drop(c, 'stalled'),
      onDrain: (c) => this.send(c),
    });
    this.clients.add(client);
    res.once('close', () => this.remove(client));
    client.write('retry: 3000\n\n');
    this.send(client);
    if (!this.looping) {
      this.looping = true;
      this.tick();
    }
    return true;
  }

  /** The latest snapshot, read again when older than one poll period. */
  async latest(): Promise<Snapshot> {
    if (this.last && Date.now() - this.last.at < this.options.pollMs) return this.last.snapshot;
    return this.refresh();
  }

  /** Reads now (joining a read in flight) and pushes the result to every page it is new to. */
  refresh(): Promise<Snapshot> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async readOnce(): Promise<Snapshot> {
    this.reads += 1;
    const snapshot = await this.options.read();
    // The read time changes every poll; what the page shows changes far less often.
    const { generatedAt, ...content } = snapshot;
    const fresh = JSON.stringify(content);
    // An unchanged snapshot keeps the key string the streams already hold.
    const key = fresh === this.last?.key ? this.last.key : fresh;
    const json = JSON.stringify({ generatedAt, ...content });
    this.last = { snapshot, key, chunk: event('snapshot', json), at: Date.now() };
    for (const client of this.clients) this.send(client);
    return snapshot;
  }

  /** Sends the latest snapshot to a stream that has not had it (and whose socket takes data). */
  private send(client: FeedClient): void {
    const last = this.last;
    if (!last || client.sentKey === last.key) return;
    if (client.write(last.chunk)) {
      client.sentKey = last.key;
      this.snapshotsSent += 1;
    }
  }

  private tick(): void {
    this.timer = undefined;
    if (this.closed || this.clients.size === 0) {
      this.looping = false;
      return;
    }
    this.refresh()
      .catch((err: unknown) => {
        this.options.logger.warn({ err }, 'dashboard poll failed');
        const problem = event(
          'problem',
          JSON.stringify({ message: 'Redis cannot be read right now' }),
        );
        for (const client of this.clients) {
          // Sent again once Redis answers, even unchanged: the page shows the problem until then.
          if (client.write(problem)) client.sentKey = undefined;
        }
      })
      .finally(() => {
        const quiet = Date.now() - this.options.keepAliveMs;
        for (const client of this.clients) {
          if (client.lastWriteAt < quiet) client.write(': keep-alive\n\n');
        }
        if (!this.closed && this.clients.size > 0) {
          this.timer = setTimeout(() => this.tick(), this.options.pollMs);
        } else {
          this.looping = false;
        }
      });
  }

  /** The stream a newcomer of this rank would evict, stalest first. */
  private victim(operator: boolean): FeedClient | undefined {
    let worst: FeedClient | undefined;
    for (const client of this.clients) {
      if (client.operator && !operator) continue;
      if (!worst || staler(client, worst)) worst = client;
    }
    return worst;
  }

  private drop(client: FeedClient, why: 'stalled' | 'evicted'): void {
    if (!this.remove(client)) return;
    this.dropped[why] += 1;
    this.options.logger.debug(
      { why, unsentBytes: client.unsentBytes, operator: client.operator },
      'event stream cut',
    );
    client.cut();
  }

  private remove(client: FeedClient): boolean {
    if (!this.clients.delete(client)) return false;
    client.dispose();
    return true;
  }

  /** Ends every stream and stops the loop. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const client of this.clients) {
      client.dispose();
      client.res.end();
    }
    this.clients.clear();
  }
}

function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
