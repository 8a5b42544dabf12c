// The registry of `wq` subcommands, in the order `wq --help` lists them.
//
// To add a command: create commands/<name>.ts exporting a `Command` (see ../command.ts):
//   - name, summary (one line for `wq --help`) and help (the full text for `wq <name> --help`);
//   - run(args): the arguments after the name; parse them with parseCommandArgs from ../args.ts
//     (strict: unknown options are refused), print results on stdout, and resolve to the exit
//     code. Throw InvalidInputError (from @weak-queens/shared) or UsageError for bad input: the
//     dispatcher prints one line on stderr and exits with 2. --help/-h never reach run().
// then add it to the list below.
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
