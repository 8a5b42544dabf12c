// What a worker's log says of its units at the default level: one line a minute with the units
// counted in it, per (n, D), instead of a line per unit (a sweep of thousands of sub-second
// units made thousands of lines an hour). Each unit's own line is at debug level.
import type { Logger } from '@weak-queens/shared/client';

/** How often the tally is logged (when a unit was counted since the last line). */
const TALLY_INTERVAL_MS = 60_000;

export class CountTally {
  #units = 0;
  #seconds = 0;
  readonly #byDepth = new Map<string, number>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    intervalMs = TALLY_INTERVAL_MS,
  ) {
    this.#timer = setInterval(() => this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** One unit of N(n, D) counted in `seconds` of its thread's time. */
  note(n: number, depth: number, seconds: number): void {
    this.#units++;
    this.#seconds += seconds;
    const key = `${n}:${depth}`;
    this.#byDepth.set(key, (this.#byDepth.get(key) ?? 0) + 1);
  }

  /** Logs what was counted since the last line, if anything. */
  flush(): void {
    if (this.#units === 0) return;
    this.logger.info(
      {
        units: this.#units,
        seconds: Math.round(this.#seconds * 10) / 10,
        // `n:D` → units, e.g. { "19:12": 118 }.
        byDepth: Object.fromEntries(this.#byDepth),
      },
      'units counted',
    );
    this.#units = 0;
    this.#seconds = 0;
    this.#byDepth.clear();
  }

  /** The last line, then no more. */
  close(): void {
    clearInterval(this.#timer);
    this.flush();
  }
}
