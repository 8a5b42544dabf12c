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

/** A computation the chosen algorithm cannot do within its limits (memory, key width, time). */
export class NotApplicableError extends WeakQueensError {
  readonly retryable = false;
  constructor(
    readonly algorithm: string,
    readonly reason: string,
  ) {
    super(`${algorithm}: ${reason}`);
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
