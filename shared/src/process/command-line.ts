// One declarative definition per command line (name, summary, positionals, options), from which
// node:util parseArgs parses, errors become one line that says what is allowed, and --help text
// is written. No dependency: `wq --help` must start fast.
import { parseArgs } from 'node:util';
import { InvalidInputError, UsageError } from '../kernel/errors.js';

export interface OptionDefinition {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The value's name in help, e.g. "k" for `--workers <k>` (string options; default "value"). */
  readonly value?: string;
  /** What the value may be, e.g. "an integer from 1 to 256": said when the value is missing. */
  readonly allowed?: string;
  /** Used when the option is absent (string options); shown in help. */
  readonly default?: string;
  /** For help: may span lines ("\n"); continuation lines are indented under the first. */
  readonly description: string;
}

export interface PositionalDefinition {
  readonly name: string;
  /** What it may be, e.g. "an integer from 1 to 32": said when it is missing. */
  readonly allowed: string;
  /** For help; defaults to `allowed`. */
  readonly description?: string;
  /** May be left out (the command then says which options need it). */
  readonly optional?: boolean;
}

export type OptionDefinitions = Readonly<Record<string, OptionDefinition>>;

export interface CommandDefinition<O extends OptionDefinitions = OptionDefinitions> {
  /** How it is invoked: "wq compute", "npm start --". */
  readonly name: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** Paragraphs under the usage line; defaults to the summary. */
  readonly description?: string;
  readonly positionals?: readonly PositionalDefinition[];
  readonly options: O;
  /** Text after the options: environment variables, exit codes, examples. */
  readonly notes?: string;
}

export type OptionValues<O extends OptionDefinitions> = {
  readonly [K in keyof O]: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K] extends { readonly default: string }
      ? string
      : string | undefined;
};

export interface ParsedCommandLine<O extends OptionDefinitions> {
  readonly values: OptionValues<O>;
  /** One per defined positional, in order (an optional one left out is absent). */
  readonly positionals: readonly string[];
}

/** True when --help or -h comes before a `--` that ends the options (whatever else is wrong). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/**
 * Parses `args` strictly: unknown options, missing values, missing or extra positionals throw
 * InvalidInputError or UsageError (exit code 2) with one line that names what is allowed.
 * --help is the caller's to answer first (wantsHelp).
 */
export function parseCommandLine<O extends OptionDefinitions>(
  definition: CommandDefinition<O>,
  args: readonly string[],
): ParsedCommandLine<O> {
  const { options } = definition;
  const expected = definition.positionals ?? [];
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(options)) {
    config[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: config, strict: true, allowPositionals: true });
  } catch (error) {
    throw rewriteParseError(error, options);
  }
  const { positionals } = parsed;
  const missing = expected[positionals.length];
  if (missing && !missing.optional)
    throw new UsageError(`missing <${missing.name}>; expected ${missing.allowed}`);
  if (positionals.length > expected.length) {
    throw new InvalidInputError(
      'argument',
      positionals[expected.length],
      expected.length === 0
        ? 'no arguments, only options'
        : `only ${expected.map((p) => `<${p.name}>`).join(' ')} and options`,
    );
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, spec] of Object.entries(options)) {
    const given = parsed.values[name];
    values[name] = spec.type === 'boolean' ? given === true : (given ?? spec.default);
  }
  return { values: values as OptionValues<O>, positionals };
}

function rewriteParseError(error: unknown, options: OptionDefinitions): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs quotes the offending option as '--name', '-x' or '-x, --name' (with a placeholder
  // for values): name the long form, the one the help shows first.
  const quoted = /'(?:-[^-' ,]+, )?(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return new InvalidInputError('option', quoted, `one of ${optionList(options)}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = quoted.replace(/^-+/, '');
    const spec = options[name] ?? Object.values(options).find((s) => s.short === name);
    if (spec?.type === 'boolean') return new UsageError(`option ${quoted} takes no value`);
    // parseArgs also lands here for `--threads -1`: a value that looks like an option.
    const hint = message.includes('ambiguous')
      ? ` (write ${quoted}=<value> if it starts with "-")`
      : '';
    return new UsageError(`option ${quoted} needs a value: ${spec?.allowed ?? 'a value'}${hint}`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return new InvalidInputError('argument', '', 'no arguments, only options');
  }
  return new UsageError(message.split('\n')[0] ?? message);
}

function optionList(options: OptionDefinitions): string {
  const names = Object.entries(options).map(([name, spec]) =>
    spec.type === 'string' ? `--${name} <value>` : `--${name}`,
  );
  return [...names, '--help'].join(', ');
}

/** The text of `<name> --help`: usage line, description, arguments, options, notes. */
export function commandHelp(definition: CommandDefinition): string {
  const positionals = definition.positionals ?? [];
  const options = Object.entries(definition.options);
  const usage = [
    `Usage: ${definition.name}`,
    ...positionals.map((p) => (p.optional ? `[<${p.name}>]` : `<${p.name}>`)),
    ...options.map(([name, spec]) => `[--${name}${valueOf(spec)}]`),
  ].join(' ');
  const sections = [usage, definition.description ?? definition.summary];
  if (positionals.length > 0) {
    sections.push(
      `Arguments:\n${columns(positionals.map((p) => [`<${p.name}>`, p.description ?? p.allowed]))}`,
    );
  }
  const rows: Array<[string, string]> = options.map(([name, spec]) => [
    `${spec.short ? `-${spec.short}, ` : '    '}--${name}${valueOf(spec)}`,
    spec.default === undefined ? spec.description : `${spec.description} (default ${spec.default})`,
  ]);
  rows.push(['-h, --help', 'this text']);
  sections.push(`Options:\n${columns(rows)}`);
  if (definition.notes) sections.push(definition.notes);
  return sections.join('\n\n');
}

function valueOf(spec: OptionDefinition): string {
  return spec.type === 'string' ? ` <${spec.value ?? 'value'}>` : '';
}

/** Two columns: the names padded to one width, multi-line descriptions indented under theirs. */
function columns(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  const indent = ' '.repeat(width + 4);
  return rows
    .map(([left, right]) => `  ${left.padEnd(width)}  ${right.split('\n').join(`\n${indent}`)}`)
    .join('\n');
}
