// How a long-running process (the worker, the dashboard) ends: the same graceful close on every
// stop signal, or when the process that started it goes away, in one place so both keep the same
// exit codes (0 after a clean close, 1 if it fails, 130 on a second signal).
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK } from './exit-code.js';

/**
 * The signals every process here treats as "close gracefully": Ctrl-C, kill, a hangup, and the
 * two whose default would kill it without a word (SIGQUIT, Ctrl-\, also dumps core; SIGUSR2 is
 * what some supervisors and nodemon send). SIGUSR1 is left to Node (it opens the inspector).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

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
    if (++stops > 1) {
      logger.warn({ reason }, 'second signal: exiting now');
      process.exit(EXIT_INTERRUPTED);
    }
    logger.info({ reason }, message);
    const closing = close();
    if (closing === undefined) process.exit(EXIT_OK);
    // A service stopped by its stop signal has done what it was asked: exit 0.
    closing.then(
      () => process.exit(EXIT_OK),
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
