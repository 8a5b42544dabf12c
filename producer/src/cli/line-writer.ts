// Writes command output to stdout with backpressure, and notices when the reader has gone
// (`wq boards 14 --all | head`) so a long listing stops instead of failing.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Lines between yields: pipes write synchronously on Linux, so an EPIPE only arrives if we yield. */
const YIELD_EVERY = 256;

export class LineWriter {
  private sinceYield = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {}

  /** Writes `text` plus a newline; resolves to false once the reader has closed the stream. */
  async line(text: string): Promise<boolean> {
    if (this.closed) return false;
    const flushed = this.stream.write(`${text}\n`);
    if (!flushed) await this.drained();
    if (++this.sinceYield >= YIELD_EVERY) {
      this.sinceYield = 0;
      await yieldToEventLoop();
    }
    return !this.closed;
  }

  get closed(): boolean {
    return this.stream.destroyed || this.stream.writableEnded;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.once('drain', done);
      this.stream.once('close', done);
      this.stream.once('error', done);
    });
  }
}
