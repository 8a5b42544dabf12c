// A small flag parser for the pipeline commands: `--name value`, `--name=value`, booleans.
// Unknown flags and missing values are InvalidInputErrors that list what is allowed.
import { InvalidInputError } from '@weak-queens/shared/contracts';

export interface FlagSpec {
  readonly booleans?: readonly string[];
  readonly values?: readonly string[];
}

export interface ParsedFlags {
  readonly positionals: string[];
  readonly booleans: Set<string>;
  readonly values: Map<string, string>;
}

export function parseFlags(args: readonly string[], spec: FlagSpec): ParsedFlags {
  const booleans = new Set<string>();
  const values = new Map<string, string>();
  const positionals: string[] = [];
  const allowed = [...(spec.booleans ?? []), ...(spec.values ?? []).map((v) => `${v} <value>`)];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (spec.booleans?.includes(name) && eq < 0) {
      booleans.add(name);
    } else if (spec.values?.includes(name)) {
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') {
        throw new InvalidInputError(name, value ?? '', 'a value after the flag');
      }
      values.set(name, value);
    } else {
      throw new InvalidInputError('flag', arg, allowed.length ? allowed.join(', ') : 'no flags');
    }
  }
  return { positionals, booleans, values };
}

/**
 * The positionals a command takes, by name: a missing one is left to the command's own parser
 * (which says what it may be), an extra one is an error instead of being ignored.
 */
export function onlyPositionals(
  positionals: readonly string[],
  names: readonly string[],
): (string | undefined)[] {
  if (positionals.length > names.length) {
    throw new InvalidInputError(
      'argument',
      positionals[names.length],
      names.length === 0
        ? 'no arguments, only options'
        : `only ${names.map((name) => `<${name}>`).join(' ')} and options`,
    );
  }
  return names.map((_, i) => positionals[i]);
}
