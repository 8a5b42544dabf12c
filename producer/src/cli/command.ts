// The contract every `wq` subcommand implements, and defineCommand, which makes one from a
// declarative command line (see @weak-queens/shared/process) and the code that runs it.
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
  readonly help: string;
  /**
   * Runs with the arguments after the name (`--help`/`-h` never reach it: the dispatcher answers
   * those) and resolves to the exit code. Errors are the dispatcher's to report (one line, exit
   * code by the policy of @weak-queens/shared/process).
   */
  run(args: string[]): Promise<number>;
}

export function defineCommand<O extends OptionDefinitions>(
  definition: CommandDefinition<O>,
  run: (line: ParsedCommandLine<O>) => Promise<number>,
): Command {
  return {
    name: definition.name.replace(/^wq /, ''),
    summary: definition.summary,
    get help() {
      return commandHelp(definition);
    },
    run: (args) => run(parseCommandLine(definition, args)),
  };
}
