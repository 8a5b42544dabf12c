// A one-line progress indicator on stderr, drawn only when stderr is a terminal so that pipes,
// logs and tests see nothing but the results on stdout.

/** Redraws at most this often; progress callbacks may fire thousands of times a second. */
const REDRAW_MS = 100;
const WIDTH = 30;

export class ProgressBar {
  private lastDraw = 0;
  private visible = false;
  private readonly started = Date.now();

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /** Shows `fraction` (0..1) of the estimated work as done; cheap when called too often. */
  update(fraction: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const clamped = Math.min(1, Math.max(0, fraction));
    const filled = Math.round(clamped * WIDTH);
    const seconds = ((now - this.started) / 1000).toFixed(1);
    const percent = (clamped * 100).toFixed(1).padStart(5);
    this.stream.write(
      `\r\x1b[K${this.label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${percent}% ${seconds}s`,
    );
    this.visible = true;
  }

  /** Removes the line (before results are printed, and at the end). */
  clear(): void {
    if (!this.visible) return;
    this.stream.write('\r\x1b[K');
    this.visible = false;
    // Redraw on the next update rather than waiting out the throttle.
    this.lastDraw = 0;
  }
}
