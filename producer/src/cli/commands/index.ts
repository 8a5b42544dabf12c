// The registry of `wq` subcommands, in the order `wq --help` lists them.
//
// To add a command: create commands/<name>.ts exporting `defineCommand(definition, run)` (see
// ../command.ts): the definition (name "wq <name>", summary, positionals, options with type,
// value, allowed, default, description; notes) gives the parsing, the one-line errors and the
// --help text; run gets the parsed values, prints results on stdout and resolves to the exit
// code. Throw InvalidInputError or UsageError for bad input (exit 2), a WorkFailedError for
// failed work (exit 1): the dispatcher prints one line. Load heavy modules (the pipeline client,
// BullMQ) inside run, with import(), so `wq --help` stays fast. Then add it to the list below.
import type { Command } from '../command.js';
import { boards } from './boards.js';
import { cancelCommand } from './cancel.js';
import { classic } from './classic.js';
import { compute } from './compute.js';
import { dashboardCommand } from './dashboard.js';
import { planCommand } from './plan.js';
import { replanCommand } from './replan.js';
import { resultsCommand } from './results.js';
import { retryCommand } from './retry.js';
import { statusCommand } from './status.js';
import { sweepCommand } from './sweep.js';
import { unique } from './unique.js';
import { verifyCommand } from './verify.js';
import { workerCommand } from './worker.js';

export const commands: readonly Command[] = [
  compute,
  classic,
  unique,
  boards,
  sweepCommand,
  planCommand,
  workerCommand,
  statusCommand,
  resultsCommand,
  cancelCommand,
  retryCommand,
  replanCommand,
  verifyCommand,
  dashboardCommand,
];
