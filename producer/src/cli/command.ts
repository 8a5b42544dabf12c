// The contract every `wq` subcommand implements. The table (commands/index.ts) names each
// command with its summary and loads its module only when it is asked for, so `wq --help`
// reads no command's code; a module (defineCommand) gives the rest of its command line
// (see @weak-queens/shared/process) and the code that runs it.
import {
  type CommandDefinition,
  commandHelp,
  type OptionDefinitions,
  type ParsedCommandLine,
  parseCommandLine,
} from '@weak-queens/shared/process';

export interface Command {
  /** The word after `wq`, e.g. "compute". */
  readonly name: string;
  /** One line for `wq --help`. */
  readonly summary: string;
  /** The full text for `wq <name> --help`, generated from the definition. */
  help(): Promise<string>;
  /**
   * Runs with the arguments after the name (`--help`/`-h` never reach it: the dispatcher answers
   * those) and resolves to the exit code. Errors are the dispatcher's to report (one line, exit
   * code by the policy of @weak-queens/shared/process).
   */
  run(args: string[]): Promise<number>;
}

/** A command line without the name and summary, which the table gives. */
type CommandLine<O extends OptionDefinitions> = Omit<CommandDefinition<O>, 'name' | 'summary'>;

/** What a command module exports: its command line and the code that runs it. */
export interface CommandModule {
  help(definition: Pick<CommandDefinition, 'name' | 'summary'>): string;
  run(definition: Pick<CommandDefinition, 'name' | 'summary'>, args: string[]): Promise<number>;
}

export function defineCommand<O extends OptionDefinitions>(
  line: CommandLine<O>,
  run: (parsed: ParsedCommandLine<O>) => Promise<number>,
): CommandModule {
  return {
    help: (named) => commandHelp({ ...line, ...named }),
    run: (named, args) => run(parseCommandLine({ ...line, ...named }, args)),
  };
}

/**
 * A row of the command table: `wq <name>`, its summary, and the module that defines and runs
 * it, imported the first time the command is asked for (its help or a run).
 */
export function lazyCommand(
  name: string,
  summary: string,
  load: () => Promise<CommandModule>,
): Command {
  const named = { name: `wq ${name}`, summary };
  return {
    name,
    summary,
    help: async () => (await load()).help(named),
    run: async (args) => (await load()).run(named, args),
  };
}
