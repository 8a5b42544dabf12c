// How a long-running process (the worker, the dashboard, `wq sweep --wait`, `npm start`) ends: the
// same graceful close on every stop signal, or when the process that started it goes away, in one
// place so all keep the same exit codes (128 + the signal's number after a close on a signal, as
// a shell reports a process the signal killed; 0 when its parent went away; 1 if closing fails).
import { EXIT_FAILED, EXIT_OK, signalExitCode } from './exit-code.js';

/**
 * The signals every process here treats as "close gracefully": Ctrl-C, kill, a hangup, and the
 * two whose default would kill it without a word (SIGQUIT, Ctrl-\, also dumps core; SIGUSR2 is
 * what some supervisors and nodemon send). SIGUSR1 is left to Node (it opens the inspector).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Whether `name` is one of the stop signals (a listener is handed the signal's name). */
function isStopSignal(name: string): name is StopSignal {
  return (STOP_SIGNALS as readonly string[]).includes(name);
}

/** The few logger methods this needs, so the CLI entry does not load a logger library. */
export interface StopLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface StopSignalOptions {
  readonly logger: StopLogger;
  /** What the first signal logs, with its reason. */
  readonly message: string;
  /** Closes the service; undefined when there is nothing to close yet (then exit 0 at once). */
  readonly close: () => Promise<void> | undefined;
}

export function closeOnStopSignals({ logger, message, close }: StopSignalOptions): void {
  let stops = 0;
  const stop = (reason: string): void => {
    // Closed on a signal, it ends as that signal would have ended it; its parent gone, with 0.
    const code = isStopSignal(reason) ? signalExitCode(reason) : EXIT_OK;
    if (++stops > 1) {
      logger.warn({ reason }, 'second signal: exiting now');
      process.exit(code);
    }
    logger.info({ reason }, message);
    const closing = close();
    if (closing === undefined) process.exit(code);
    closing.then(
      () => process.exit(code),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exit(EXIT_FAILED);
      },
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  // Started with an IPC channel (`wq worker`, `wq dashboard`, `npm start`): when that parent
  // dies, even by kill -9, the channel closes and this process closes instead of living on.
  if (process.send !== undefined) process.once('disconnect', () => stop('parent exited'));
}

/**
 * For a process with no graceful close of its own (the `wq` CLI, whose default on SIGTERM is to
 * exit at once): SIGQUIT and SIGUSR2 end it exactly as SIGTERM does, rather than with a core
 * dump or silently. The listener re-raises SIGTERM with no listener of its own left.
 */
export function endOnQuitLikeTerm(): void {
  const asTerm = (signal: NodeJS.Signals): void => {
    // A command that closes gracefully (`wq worker`, `wq dashboard`) listens to every stop
    // signal itself: then this one is its business.
    if (process.listenerCount(signal) > 1) return;
    for (const quit of ['SIGQUIT', 'SIGUSR2'] as const) process.removeListener(quit, asTerm);
    process.kill(process.pid, 'SIGTERM');
  };
  for (const signal of ['SIGQUIT', 'SIGUSR2'] as const) process.on(signal, asTerm);
}

/**
 * For a command whose work lives elsewhere (`wq sweep --wait` follows a sweep the workers run,
 * and its record says how far a submission got): on a stop signal, one line that says so and the
 * exit code of that signal at once, since nothing of its own is left to close.
 */
export function exitOnStopSignals(
  command: string,
  stderr: NodeJS.WriteStream = process.stderr,
): void {
  const stop = (signal: NodeJS.Signals): void => {
    // A progress bar may hold the terminal's line: the line replaces it.
    stderr.write(`${stderr.isTTY ? '\r\x1b[K' : ''}${stoppedLine(command, signal)}\n`);
    process.exit(signalExitCode(signal));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
}

/** The one line a command stopped by a signal leaves: "wq worker: stopped by SIGTERM". */
export function stoppedLine(command: string, signal: NodeJS.Signals): string {
  return `${command}: stopped by ${signal}`;
}
