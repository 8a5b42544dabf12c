// Strict argument parsing for the subcommands: node:util parseArgs, with its errors rewritten as
// one line that names the option and says what is allowed.
import { parseArgs } from 'node:util';
import { InvalidInputError } from '@weak-queens/shared/contracts';
import { MAX_N } from '@weak-queens/shared/kernel';
import { UsageError } from './usage-error.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** What the value may be, e.g. "an integer from 1 to 256"; used in error messages. */
  readonly allowed?: string;
}

type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

/** A positional argument: its name in the usage line and what it may be. */
export interface Positional {
  readonly name: string;
  readonly allowed: string;
}

export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  readonly values: OptionValues<O>;
  readonly positionals: string[];
}

/**
 * Parses `args` against `options` and exactly the given positionals.
 * Unknown options, missing values and wrong positional counts throw one-line errors.
 */
export function parseCommandArgs<O extends Record<string, OptionSpec>>(
  args: string[],
  options: O,
  expected: readonly Positional[],
): ParsedArgs<O> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(options)) {
    config[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: config, strict: true, allowPositionals: true });
  } catch (error) {
    throw rewriteParseError(error, options);
  }
  const { positionals } = parsed;
  const missing = expected[positionals.length];
  if (missing) throw new UsageError(`missing <${missing.name}>; expected ${missing.allowed}`);
  if (positionals.length > expected.length) {
    throw new InvalidInputError(
      'argument',
      positionals[expected.length],
      expected.length === 0
        ? 'no arguments'
        : `only ${expected.map((p) => `<${p.name}>`).join(' ')} and options`,
    );
  }
  return { values: parsed.values as OptionValues<O>, positionals };
}

function rewriteParseError(error: unknown, options: Record<string, OptionSpec>): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs quotes the offending option as '--name' or '-x' (with a placeholder for values).
  const quoted = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return new InvalidInputError('option', quoted, `one of ${describeOptions(options)}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = quoted.replace(/^-+/, '');
    const spec =
      options[name] ?? Object.entries(options).find(([, s]) => s.short === name)?.[1] ?? undefined;
    if (spec?.type === 'boolean') {
      return new UsageError(`option ${quoted} takes no value`);
    }
    // parseArgs also lands here for `--threads -1`: a value that looks like an option.
    const hint = message.includes('ambiguous')
      ? ` (write ${quoted}=<value> if it starts with "-")`
      : '';
    return new UsageError(`option ${quoted} needs a value: ${spec?.allowed ?? 'a value'}${hint}`);
  }
  return new UsageError(message.split('\n')[0] ?? message);
}

function describeOptions(options: Record<string, OptionSpec>): string {
  const names = Object.entries(options).map(([name, spec]) =>
    spec.type === 'string' ? `--${name} <value>` : `--${name}`,
  );
  return [...names, '--help'].join(', ');
}

/** An integer in [min, max] written in plain decimal, or InvalidInputError naming the field. */
export function parseInteger(field: string, text: string, min: number, max: number): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidInputError(field, text, integerRange(min, max));
  }
  return value;
}

export function integerRange(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER
    ? `an integer ≥ ${min}`
    : `an integer from ${min} to ${max}`;
}

/** A single board size for the classic commands. */
export function parseBoardSize(text: string): number {
  return parseInteger('n', text, 1, MAX_N);
}
