// Entry point of `npm start`: its command line (the same framework as `wq`), the embedded
// pipeline, and the exit code by the one policy of @weak-queens/shared/process.
import {
  type CommandDefinition,
  commandHelp,
  EXIT_OK,
  InterruptedError,
  integerRange,
  parseCommandLine,
  parseIntegerOption,
  reportFailure,
  wantsHelp,
} from '@weak-queens/shared/process';
import { parseSizes } from './cli/commands/n-spec.js';
import { STOP_SIGNALS } from './embedded/worker-process.js';
import { staysUp } from './embedded/stays-up.js';

const DEFAULT_NS = '1-14';
const SMALL_NS = '1-10';
const MAX_WORKERS = 256;

const START_COMMAND_LINE = {
  name: 'npm start --',
  summary: 'the whole pipeline on this machine: Redis, workers, dashboard, a sweep, its results',
  description: `Runs a private redis-server (data in ./.data/redis) unless REDIS_URL is set, one worker
process per core, the dashboard, and a sweep of S(n); prints the results on stdout. It holds
./.data for itself: a second npm start there exits 2 naming the first; what it starts stops
with it, even on kill -9 (the next run takes over a lock whose holder is gone).`,
  options: {
    n: {
      type: 'string',
      value: 'ns',
      allowed: 'sizes from 1 to 32 as "14", "4-12" or "4,6,10-12"',
      description: `board sizes: "14", "4-12" or "4,6,10-12" (default ${DEFAULT_NS})`,
    },
    small: { type: 'boolean', description: `n = ${SMALL_NS}, a quick look (unless --n is given)` },
    workers: {
      type: 'string',
      value: 'k',
      allowed: integerRange(1, MAX_WORKERS),
      description: 'worker processes (default: the number of cores)',
    },
    json: { type: 'boolean', description: 'one JSON line per n instead of the tables' },
    exit: {
      type: 'boolean',
      description: 'exit when the sweep is done, also on a terminal',
    },
  },
  notes: `On a terminal the dashboard and the idle workers stay up after the sweep, ready for sweeps
started from its form ("dashboard at <url>; Ctrl-C to stop"); with --exit, or without a
terminal (a pipe, CI), npm start exits when the sweep is done.
Exit codes: 0 done, 1 the work failed, 2 bad input; stopped by a signal (everything closed first):
128 + its number, 129 SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT, 140 SIGUSR2, 143 SIGTERM.`,
} as const satisfies CommandDefinition;

async function main(argv: readonly string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${commandHelp(START_COMMAND_LINE)}\n`);
    return EXIT_OK;
  }
  const { values } = parseCommandLine(START_COMMAND_LINE, argv);
  const ns = parseSizes(values.n ?? (values.small ? SMALL_NS : DEFAULT_NS), '--n');
  const workers =
    values.workers === undefined
      ? undefined
      : parseIntegerOption('--workers', values.workers, 1, MAX_WORKERS);
  // Loaded after the command line is read, so --help and bad flags answer at once.
  const [{ createLogger }, { runEmbedded }] = await Promise.all([
    import('@weak-queens/shared/client'),
    import('./embedded/embedded-run.js'),
  ]);
  const logger = createLogger({ name: 'wq-start', level: 'info' });
  const controller = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = signal;
    logger.info({ signal }, 'stopping');
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  try {
    return await runEmbedded({
      ns,
      logger,
      json: values.json,
      signal: controller.signal,
      stayUp: staysUp({
        exit: values.exit,
        stdoutIsTTY: process.stdout.isTTY === true,
        stderrIsTTY: process.stderr.isTTY === true,
      }),
      ...(workers === undefined ? {} : { workers }),
    });
  } catch (err) {
    // Whatever broke while shutting down on a signal, the run was stopped by that signal: one
    // line naming it, and its exit code.
    throw interrupted ? new InterruptedError(interrupted) : err;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) =>
    process.exit(reportFailure('npm start', err, { debug: Boolean(process.env.WQ_DEBUG) })),
);
