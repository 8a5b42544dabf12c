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
// inside run, with import(), so its `--help` stays fast too. Then add it to both lists below.
import { DASHBOARD_COMMAND_LINE, WORKER_COMMAND_LINE } from '@weak-queens/shared/process';
import { type Command, type CommandModule, lazyCommand } from '../command.js';

/** Each command's one line in `wq --help`, in the order it lists them. */
const SUMMARIES = {
  compute: 'exact N(n, D) for every attack depth D, and S(n)',
  classic: 'the classic n-queens count Q(n) (OEIS A000170)',
  unique: 'classic solutions distinct under rotations and reflections (OEIS A002562)',
  boards: 'list the classic n-queens solutions (first 100 unless asked for more)',
  sweep: 'enqueue S(n) for every n of <ns> on the worker pool (Redis from REDIS_URL)',
  plan: 'dry run: algorithm, units, core-seconds, memory and makespan of a sweep on a cluster',
  worker: WORKER_COMMAND_LINE.summary,
  status: 'show sweeps (n done/total, per-n progress) and live workers',
  results: 'print N(n, D) and S(n) from the result store; export or import them as JSON lines',
  cancel: "remove a sweep's unfinished jobs (stored results are kept)",
  retry: 're-run the failed (or cancelled) part of a sweep (weak or classic)',
  replan: "plan a sweep's unfinished work again for the live workers (units that fit none)",
  verify: 'recount stored results with a second algorithm; report (and --repair) disagreements',
  dashboard: DASHBOARD_COMMAND_LINE.summary,
};

/** Each command's module, imported the first time the command is asked for. */
const MODULES: Readonly<Record<keyof typeof SUMMARIES, () => Promise<CommandModule>>> = {
  compute: async () => (await import('./compute.js')).compute,
  classic: async () => (await import('./classic.js')).classic,
  unique: async () => (await import('./unique.js')).unique,
  boards: async () => (await import('./boards.js')).boards,
  sweep: async () => (await import('./sweep.js')).sweepCommand,
  plan: async () => (await import('./plan.js')).planCommand,
  worker: async () => (await import('./worker.js')).workerCommand,
  status: async () => (await import('./status.js')).statusCommand,
  results: async () => (await import('./results.js')).resultsCommand,
  cancel: async () => (await import('./cancel.js')).cancelCommand,
  retry: async () => (await import('./retry.js')).retryCommand,
  replan: async () => (await import('./replan.js')).replanCommand,
  verify: async () => (await import('./verify.js')).verifyCommand,
  dashboard: async () => (await import('./dashboard.js')).dashboardCommand,
};

export const commands: readonly Command[] = (
  Object.keys(SUMMARIES) as Array<keyof typeof SUMMARIES>
).map((name) => lazyCommand(name, SUMMARIES[name], MODULES[name]));
