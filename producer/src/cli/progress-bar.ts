// The one progress indicator of the CLI, on stderr. On a terminal: a bar redrawn in place. Without
// one (a pipe, a log file): nothing, or, when asked for (a sweep that runs for hours), a plain
// line at most every 10 s or every 10 %, so logs get a heartbeat and not a line per update.
// (cli-progress would do the terminal half in more code than this; it has no plain mode.)

/** Redraws at most this often; progress callbacks may fire thousands of times a second. */
const REDRAW_MS = 100;
/** Without a terminal, a plain line at most this often… */
const PLAIN_EVERY_MS = 10_000;
/** …or when the work done crosses another tenth. */
const PLAIN_STEPS = 10;
const WIDTH = 30;

export interface ProgressBarOptions {
  readonly label: string;
  readonly stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Print plain lines when the stream is not a terminal (default false: print nothing). */
  readonly plain?: boolean;
  readonly now?: () => number;
}

export class ProgressBar {
  private readonly label: string;
  private readonly stream: NodeJS.WritableStream & { isTTY?: boolean };
  private readonly plain: boolean;
  private readonly now: () => number;
  private readonly started: number;
  private lastDraw = 0;
  private lastPlain: number;
  private lastStep = 0;
  private visible = false;

  constructor(options: ProgressBarOptions) {
    this.label = options.label;
    this.stream = options.stream ?? process.stderr;
    this.plain = options.plain ?? false;
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.lastPlain = this.started;
  }

  get terminal(): boolean {
    return this.stream.isTTY === true;
  }

  /** False when updates would print nothing: callers may skip computing them. */
  get enabled(): boolean {
    return this.terminal || this.plain;
  }

  /**
   * Shows `fraction` (0..1) of the work as done, with a detail such as "5/11 n"; cheap. `last`
   * (the work is done) is always shown, so the final line says what the results say.
   */
  update(fraction: number, detail = '', last = false): void {
    const now = this.now();
    const clamped = Math.min(1, Math.max(0, fraction));
    if (this.terminal) {
      if (now - this.lastDraw < REDRAW_MS && !last) return;
      this.lastDraw = now;
      this.stream.write(`\r\x1b[K${this.line(clamped, detail, now)}`);
      this.visible = true;
    } else if (this.plain) {
      const step = Math.floor(clamped * PLAIN_STEPS);
      if (now - this.lastPlain < PLAIN_EVERY_MS && step <= this.lastStep && !last) return;
      this.lastPlain = now;
      this.lastStep = step;
      this.stream.write(`${this.line(clamped, detail, now)}\n`);
    }
  }

  /** Removes the bar from a terminal (before results or a message are printed, and at the end). */
  clear(): void {
    if (!this.visible) return;
    this.stream.write('\r\x1b[K');
    this.visible = false;
    // Redraw on the next update rather than waiting out the throttle.
    this.lastDraw = 0;
  }

  private line(fraction: number, detail: string, now: number): string {
    const filled = Math.round(fraction * WIDTH);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}`;
    const percent = (fraction * 100).toFixed(1).padStart(5);
    const seconds = ((now - this.started) / 1000).toFixed(1);
    return `${this.label} [${bar}] ${percent}%${detail ? `  ${detail}` : ''}  ${seconds}s`;
  }
}
