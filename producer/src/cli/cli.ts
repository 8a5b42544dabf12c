// The `wq` dispatcher: picks the command, answers --help everywhere, and turns every failure into
// one line on stderr and an exit code (0 ok, 1 failed, 2 bad command line), never a stack trace.
import { InvalidInputError, WeakQueensError } from '@weak-queens/shared/contracts';
import type { Command } from './command.js';
import { errorLine } from './error-line.js';
import { UsageError } from './usage-error.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface CliOptions {
  readonly commands: readonly Command[];
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
  /** Print stack traces of unexpected errors too (the WQ_DEBUG environment variable). */
  readonly debug?: boolean;
}

export class Cli {
  private readonly commands: readonly Command[];
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;
  private readonly debug: boolean;

  constructor(options: CliOptions) {
    this.commands = options.commands;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.debug = options.debug ?? false;
  }

  /** Runs `wq <argv…>` and resolves to the exit code. */
  async run(argv: readonly string[]): Promise<number> {
    const [name, ...args] = argv;
    if (name === undefined) {
      return this.fail('wq', new UsageError(`missing command; expected ${this.commandList()}`));
    }
    if (name === '--help' || name === '-h') return this.print(this.help());
    if (name === 'help') {
      const topic = args[0];
      if (topic === undefined) return this.print(this.help());
      const command = this.find(topic);
      return command ? this.print(command.help) : this.fail('wq', this.unknownCommand(topic));
    }
    const command = this.find(name);
    if (!command) return this.fail('wq', this.unknownCommand(name));
    if (wantsHelp(args)) return this.print(command.help);
    try {
      return await command.run(args);
    } catch (error) {
      return this.fail(`wq ${command.name}`, error);
    }
  }

  help(): string {
    const width = Math.max(...this.commands.map((c) => c.name.length));
    const lines = this.commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
    return [
      'wq: exact counts of weak-queen placements N(n, D) and S(n), and the classic n-queens family',
      '',
      'Usage: wq <command> [arguments] [options]',
      '',
      'Commands:',
      ...lines,
      '',
      'Run "wq <command> --help" for the arguments and options of a command.',
    ].join('\n');
  }

  private find(name: string): Command | undefined {
    return this.commands.find((c) => c.name === name);
  }

  private commandList(): string {
    return `one of ${this.commands.map((c) => c.name).join(', ')} (see wq --help)`;
  }

  private unknownCommand(name: string): InvalidInputError {
    return new InvalidInputError('command', name, this.commandList());
  }

  private print(text: string): number {
    this.stdout.write(`${text}\n`);
    return EXIT_OK;
  }

  private fail(prefix: string, error: unknown): number {
    const usage = error instanceof InvalidInputError || error instanceof UsageError;
    const message =
      error instanceof WeakQueensError
        ? error.message
        : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    // One short line: the promise to callers is one line they can read or grep.
    this.stderr.write(`${errorLine(prefix, message)}\n`);
    if (this.debug && error instanceof Error && error.stack) this.stderr.write(`${error.stack}\n`);
    return usage ? EXIT_USAGE : EXIT_FAILED;
  }
}

export function createCli(options: CliOptions): Cli {
  return new Cli(options);
}

/** True when --help or -h appears before a `--` that ends the options. */
function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
