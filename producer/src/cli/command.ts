// The contract every `wq` subcommand implements; the registry in commands/index.ts lists them.

export interface Command {
  /** The word after `wq`, e.g. "compute". */
  readonly name: string;
  /** One line for `wq --help`. */
  readonly summary: string;
  /** The full text for `wq <name> --help`: usage line, arguments, options, examples. */
  readonly help: string;
  /**
   * Runs with the arguments after the name (`--help`/`-h` never reach it: the dispatcher answers
   * those) and resolves to the exit code. Bad input is reported by throwing InvalidInputError or
   * UsageError, which the dispatcher prints as one line and turns into exit code 2.
   */
  run(args: string[]): Promise<number>;
}
