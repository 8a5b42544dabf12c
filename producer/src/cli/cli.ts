// The `wq` dispatcher: picks the command, answers --help everywhere, and turns every failure into
// one line on stderr and an exit code by the one policy of @weak-queens/shared/process (0 ok, 1 the
// work failed, 2 bad command line or setup, 128 + a stop signal's number), never a stack trace.
import {
  EXIT_OK,
  InvalidInputError,
  reportFailure,
  UsageError,
  wantsHelp,
} from '@weak-queens/shared/process';
import type { Command } from './command.js';

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
      return command ? this.printHelp(command) : this.fail('wq', this.unknownCommand(topic));
    }
    const command = this.find(name);
    if (!command) return this.fail('wq', this.unknownCommand(name));
    if (wantsHelp(args)) return this.printHelp(command);
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
      'Exit codes: 0 done, 1 the work failed, 2 bad input; a long-running command (worker,',
      'dashboard, sweep --wait, status --watch) stopped by a signal says so in one line and exits',
      'with 128 + its number: 129 SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT, 140 SIGUSR2, 143 SIGTERM.',
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

  private async printHelp(command: Command): Promise<number> {
    return this.print(await command.help());
  }

  private fail(prefix: string, error: unknown): number {
    return reportFailure(prefix, error, { stderr: this.stderr, debug: this.debug });
  }
}

export function createCli(options: CliOptions): Cli {
  return new Cli(options);
}
