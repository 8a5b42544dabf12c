// The one line a failed command leaves on stderr: the first line of the message, cut to a length
// a person can read (an echoed value may be 100 kB long).

/** The longest line a command prints for an error. */
export const MAX_ERROR_LINE = 400;

export function errorLine(prefix: string, message: string): string {
  const first = message.split('\n')[0] ?? '';
  const line = `${prefix}: ${first}`;
  return line.length <= MAX_ERROR_LINE ? line : `${line.slice(0, MAX_ERROR_LINE - 1)}…`;
}
