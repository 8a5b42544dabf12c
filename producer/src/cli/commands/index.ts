// The table of `wq` subcommands, in the order `wq --help` lists them: each one's name, its
// summary, and its module, which is imported only when the command is asked for (its help or a
// run), so that `wq --help` loads no command's code and no heavy package.
//
// To add a command: create commands/<name>.ts exporting `defineCommand(line, run)` (see
// ../command.ts): the line (description, positionals, options with type, value, allowed,
// default, description; notes) gives the parsing, the one-line errors and the --help text; run
// gets the parsed values, prints results on stdout and resolves to the exit code. Throw
// InvalidInputError or UsageError for bad input (exit 2), a WorkFailedError for failed work
// (exit 1): the dispatcher prints one line. Import only light modules at the top of it (the
// process kit, type-only imports) and heavy ones (the pipeline client, BullMQ, the kernel)
// inside run, with import(), so its `--help` stays fast too. Then add its row below.
import { DASHBOARD_COMMAND_LINE, WORKER_COMMAND_LINE } from '@weak-queens/shared/process';
import { type Command, lazyCommand } from '../command.js';

export const commands: readonly Command[] = [
  lazyCommand(
    'compute',
    'exact N(n, D) for every attack depth D, and S(n)',
    async () => (await import('./compute.js')).compute,
  ),
  lazyCommand(
    'classic',
    'the classic n-queens count Q(n) (OEIS A000170)',
    async () => (await import('./classic.js')).classic,
  ),
  lazyCommand(
    'unique',
    'classic solutions distinct under rotations and reflections (OEIS A002562)',
    async () => (await import('./unique.js')).unique,
  ),
  lazyCommand(
    'boards',
    'list the classic n-queens solutions (first 100 unless asked for more)',
    async () => (await import('./boards.js')).boards,
  ),
  lazyCommand(
    'sweep',
    'enqueue S(n) for every n of <ns> on the worker pool (Redis from REDIS_URL)',
    async () => (await import('./sweep.js')).sweepCommand,
  ),
  lazyCommand(
    'plan',
    'dry run: algorithm, units, core-seconds, memory and makespan of a sweep on a cluster',
    async () => (await import('./plan.js')).planCommand,
  ),
  lazyCommand(
    'worker',
    WORKER_COMMAND_LINE.summary,
    async () => (await import('./worker.js')).workerCommand,
  ),
  lazyCommand(
    'status',
    'show sweeps (n done/total, per-n progress) and live workers',
    async () => (await import('./status.js')).statusCommand,
  ),
  lazyCommand(
    'results',
    'print N(n, D) and S(n) from the result store; export or import them as JSON lines',
    async () => (await import('./results.js')).resultsCommand,
  ),
  lazyCommand(
    'cancel',
    "remove a sweep's unfinished jobs (stored results are kept)",
    async () => (await import('./cancel.js')).cancelCommand,
  ),
  lazyCommand(
    'retry',
    're-run the failed (or cancelled) part of a sweep (weak or classic)',
    async () => (await import('./retry.js')).retryCommand,
  ),
  lazyCommand(
    'replan',
    "plan a sweep's unfinished work again for the live workers (units that fit none)",
    async () => (await import('./replan.js')).replanCommand,
  ),
  lazyCommand(
    'verify',
    'recount stored results with a second algorithm; report (and --repair) disagreements',
    async () => (await import('./verify.js')).verifyCommand,
  ),
  lazyCommand(
    'dashboard',
    DASHBOARD_COMMAND_LINE.summary,
    async () => (await import('./dashboard.js')).dashboardCommand,
  ),
];
