// Server-Sent Events for the page: one poll loop reads Redis for every open page together (never
// one loop per page), runs only while a page is open, and pushes a snapshot when it changed.
// The JSON API reads through latest(), so API calls within one poll period cost no extra reads.
import type { Response } from 'express';
import type { Logger } from '@weak-queens/shared/client';
import type { Snapshot } from './snapshot.js';

export interface LiveFeedOptions {
  readonly read: () => Promise<Snapshot>;
  readonly pollMs: number;
  readonly logger: Logger;
  /** Open pages allowed at once (each holds a connection). */
  readonly maxClients?: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  readonly keepAliveMs?: number;
}

export class LiveFeed {
  private readonly clients = new Set<Response>();
  private timer?: NodeJS.Timeout;
  private looping = false;
  private inFlight?: Promise<Snapshot>;
  private last?: { snapshot: Snapshot; json: string; at: number };
  private lastSentAt = 0;
  private closed = false;
  /** Redis reads made so far (tests check that pages share them). */
  reads = 0;

  constructor(private readonly options: LiveFeedOptions) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** False when the page limit is reached (the caller answers 503). */
  add(res: Response): boolean {
    if (this.closed || this.clients.size >= (this.options.maxClients ?? 100)) return false;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write('retry: 3000\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
    if (this.last) res.write(event('snapshot', this.last.json));
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

  /** Reads now (joining a read in flight) and pushes the result to every page. */
  refresh(): Promise<Snapshot> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async readOnce(): Promise<Snapshot> {
    this.reads += 1;
    const snapshot = await this.options.read();
    const json = JSON.stringify(snapshot);
    const changed = json !== this.last?.json;
    this.last = { snapshot, json, at: Date.now() };
    if (changed) this.broadcast(event('snapshot', json));
    return snapshot;
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
        this.broadcast(
          event('problem', JSON.stringify({ message: 'Redis cannot be read right now' })),
        );
      })
      .finally(() => {
        if (Date.now() - this.lastSentAt > (this.options.keepAliveMs ?? 15_000)) {
          this.broadcast(': keep-alive\n\n');
        }
        if (!this.closed && this.clients.size > 0) {
          this.timer = setTimeout(() => this.tick(), this.options.pollMs);
        } else {
          this.looping = false;
        }
      });
  }

  private broadcast(chunk: string): void {
    this.lastSentAt = Date.now();
    for (const res of this.clients) res.write(chunk);
  }

  /** Ends every stream and stops the loop. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

function event(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
