// Errors shared by every package. Each one says what was wrong, what is allowed, and whether
// trying again can help (the worker uses `retryable` to fail a job without retries).

export abstract class WeakQueensError extends Error {
  abstract readonly retryable: boolean;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that can never succeed: a CLI argument, a job payload or an HTTP body out of range. */
export class InvalidInputError extends WeakQueensError {
  readonly retryable = false;
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly allowed: string,
  ) {
    super(`${field}: ${describe(value)} is not allowed; expected ${allowed}`);
  }
}

/**
 * The work itself failed (a unit, a sweep), not the input: trying the same command again cannot
 * help, yet the command line was fine, so the exit code is 1.
 */
export abstract class WorkFailedError extends WeakQueensError {
  readonly retryable = false;
}

/**
 * A command line that cannot be understood: a missing argument, an option without its value,
 * options that exclude each other. Exit code 2, like every other bad input.
 */
export class UsageError extends WeakQueensError {
  readonly retryable = false;
}

/**
 * A run stopped because it was asked to (Ctrl-C, SIGTERM, SIGHUP, …): exit code 128 + the
 * signal's number (130 when the signal is not known).
 */
export class InterruptedError extends WeakQueensError {
  readonly retryable = false;
  constructor(readonly signal?: NodeJS.Signals) {
    super(signal ? `stopped by ${signal}` : 'interrupted');
  }
}

// The kernel pool's own failures: not WeakQueensErrors, because what they say is about a thread
// and a unit, never about an input or Redis.

/**
 * A unit the kernel pool could not count (the kernel threw, its thread died, or it ran past its
 * work bound), with whether another attempt can help.
 */
export class KernelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'KernelError';
  }
}

/**
 * Thrown into a running or waiting unit when its kernel pool is handed back or closed (the worker
 * shutting down) before the unit could finish: the unit was interrupted on purpose, and its job
 * goes back to the queue without losing an attempt.
 */
export class HandBackError extends Error {
  constructor() {
    super('worker is shutting down: unit handed back');
    this.name = 'HandBackError';
  }
}

/** Echoed values are cut to this many characters, so an error stays one readable line. */
export const MAX_ECHO_CHARS = 80;

function describe(value: unknown): string {
  let text: string;
  if (typeof value === 'bigint') {
    text = `${value}`;
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return truncate(text, MAX_ECHO_CHARS);
}

/** At most `max` characters: a long text keeps its start and says how long it was. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}
