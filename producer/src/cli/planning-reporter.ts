// Says how far a long submission is, on stderr: nothing for its first seconds (most take less),
// then a line every few seconds, so planning a large sweep is never a long silence.
import type { PlanningStep } from '@weak-queens/shared/client';

export interface PlanningReporterOptions {
  readonly stream?: NodeJS.WritableStream;
  /** Quiet this long after the start (ms). */
  readonly quietMs?: number;
  /** At most one line this often after that (ms). */
  readonly everyMs?: number;
  readonly now?: () => number;
}

export function planningReporter(
  command: string,
  options: PlanningReporterOptions = {},
): (step: PlanningStep) => void {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  let next = now() + (options.quietMs ?? 2000);
  const started = now();
  return (step) => {
    const at = now();
    if (at < next) return;
    next = at + (options.everyMs ?? 5000);
    const share =
      step.fraction === undefined ? '' : `planning ${Math.floor(step.fraction * 100)}%: `;
    const seconds = Math.round((at - started) / 1000);
    stream.write(`${command}: ${share}${step.what} (${seconds} s so far)\n`);
  };
}
