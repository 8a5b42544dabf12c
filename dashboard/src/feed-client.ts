// One open event stream of the live feed. A socket that stops taking data is never written to
// until it drains, so a page that does not read holds at most one chunk beyond the kernel's
// buffers; if it has not drained within the deadline, the feed cuts it.
import type { ServerResponse } from 'node:http';

export interface FeedClientOptions {
  /** A logged-in operator (a token or session cookie) outranks an anonymous page. */
  readonly operator: boolean;
  readonly drainTimeoutMs: number;
  /** Called once the deadline passes without a drain. */
  readonly onStall: (client: FeedClient) => void;
  /** Called when the socket drains: the client may have missed a snapshot meanwhile. */
  readonly onDrain: (client: FeedClient) => void;
}

export class FeedClient {
  readonly openedAt = Date.now();
  /** When it was last written to (a keep-alive goes to a stream quiet for too long). */
  lastWriteAt = this.openedAt;
  /** The change key of the snapshot it was sent last (the feed's own string, not a copy). */
  sentKey: string | undefined;
  /** When a write started waiting for 'drain'; undefined while the socket takes data. */
  private waitingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly drained = (): void => {
    if (this.waitingSince === undefined) return;
    this.waitingSince = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.options.onDrain(this);
  };

  constructor(
    readonly res: ServerResponse,
    private readonly options: FeedClientOptions,
  ) {
    res.on('drain', this.drained);
  }

  get operator(): boolean {
    return this.options.operator;
  }

  get waiting(): boolean {
    return this.waitingSince !== undefined;
  }

  /** Bytes written but not yet handed to the kernel. */
  get unsentBytes(): number {
    return this.res.writableLength;
  }

  /** Since when it has waited for 'drain', or when it opened if it never did. */
  get staleSince(): number {
    return this.waitingSince ?? this.openedAt;
  }

  /** Writes the chunk unless the socket has not drained since the last one; false if skipped. */
  write(chunk: string): boolean {
    if (this.waitingSince !== undefined || this.res.destroyed) return false;
    this.lastWriteAt = Date.now();
    if (!this.res.write(chunk)) {
      this.waitingSince = Date.now();
      this.timer = setTimeout(() => this.options.onStall(this), this.options.drainTimeoutMs);
    }
    return true;
  }

  /** Removes its listener and timer; the feed calls this once the stream is gone. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.res.off('drain', this.drained);
  }

  /**
   * Cuts the connection at once: a reset discards what the kernel still holds for a peer that
   * does not read, where a plain close would keep it queued behind the unread data.
   */
  cut(): void {
    const socket = this.res.socket;
    if (socket && !socket.destroyed) socket.resetAndDestroy();
    else this.res.destroy();
  }
}

/** Whether `a` should be evicted before `b`: one awaiting drain, then the lower rank, then the
 * one holding more unsent bytes, then the one stale the longest. */
export function staler(a: FeedClient, b: FeedClient): boolean {
  if (a.waiting !== b.waiting) return a.waiting;
  if (a.operator !== b.operator) return !a.operator;
  if (a.unsentBytes !== b.unsentBytes) return a.unsentBytes > b.unsentBytes;
  return a.staleSince < b.staleSince;
}
