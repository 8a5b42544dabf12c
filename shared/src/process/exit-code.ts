// The one error-to-exit-code policy of every entry point (wq, npm start, the worker and
// dashboard processes): 0 done, 1 the work failed, 2 bad input, 128 + the signal's number when a
// stop signal ended it (130 for Ctrl-C).
import { InterruptedError, WeakQueensError, WorkFailedError } from '../kernel/errors.js';
import { namedRedisError } from '../contracts/redis-errors.js';
import { constants } from 'node:os';
import { errorLine } from './error-line.js';

export const EXIT_OK = 0;
/** The work failed (a unit, a sweep), or something that may come back (Redis) stayed away. */
export const EXIT_FAILED = 1;
/** The command line, the configuration or the setup must change: trying again cannot help. */
export const EXIT_USAGE = 2;
/** Stopped by Ctrl-C before the work was done (128 + SIGINT, as shells do); see signalExitCode. */
export const EXIT_INTERRUPTED = 130;

/**
 * The exit code of a process stopped by `signal`: 128 + its number (on Linux SIGHUP 129, SIGINT
 * 130, SIGQUIT 131, SIGUSR2 140, SIGTERM 143), what a shell reports for a process the signal
 * killed, so `$?` names the signal whether the process closed first or not.
 */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

export function exitCodeOf(thrown: unknown): number {
  const error = namedRedisError(thrown);
  if (error instanceof InterruptedError) {
    return error.signal === undefined ? EXIT_INTERRUPTED : signalExitCode(error.signal);
  }
  if (error instanceof WorkFailedError) return EXIT_FAILED;
  // Our own errors say whether a retry can help: if not, what was asked must change.
  if (error instanceof WeakQueensError) return error.retryable ? EXIT_FAILED : EXIT_USAGE;
  return EXIT_FAILED;
}

export interface ReportOptions {
  readonly stderr?: NodeJS.WritableStream;
  /** Also print the stack of an unexpected error (WQ_DEBUG). */
  readonly debug?: boolean;
}

/**
 * Writes one line for `error` on stderr, prefixed with the command ("wq sweep", "npm start"),
 * and returns its exit code. Unexpected errors (not ours) say so, since they are bugs.
 */
export function reportFailure(
  prefix: string,
  thrown: unknown,
  options: ReportOptions = {},
): number {
  // Redis's refusals (OOM, READONLY, EXECABORT around them) and a lost connection are named,
  // not reported as bugs.
  const error = namedRedisError(thrown);
  const stderr = options.stderr ?? process.stderr;
  const message =
    error instanceof WeakQueensError
      ? error.message
      : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  stderr.write(`${errorLine(prefix, message)}\n`);
  if (
    options.debug &&
    error instanceof Error &&
    error.stack &&
    !(error instanceof WeakQueensError)
  ) {
    stderr.write(`${error.stack}\n`);
  }
  return exitCodeOf(error);
}
