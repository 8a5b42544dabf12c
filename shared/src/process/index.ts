// @weak-queens/shared/process: what every entry point (wq, npm start, the worker and dashboard
// processes) shares to read its command line and end: one declarative command definition
// (parsing, errors, help) and one error-to-exit-code policy. Node built-ins only, so `--help`
// stays fast; the command lines of the worker and dashboard processes are defined here because
// `wq worker`/`wq dashboard` check them before they start those processes.
export {
  type CommandDefinition,
  type OptionDefinition,
  type OptionDefinitions,
  type OptionValues,
  type ParsedCommandLine,
  type PositionalDefinition,
  commandHelp,
  parseCommandLine,
  wantsHelp,
} from './command-line.js';
export {
  EXIT_FAILED,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  exitCodeOf,
  reportFailure,
  type ReportOptions,
  signalExitCode,
} from './exit-code.js';
export { errorLine, MAX_ERROR_LINE } from './error-line.js';
export {
  closeOnStopSignals,
  endOnQuitLikeTerm,
  exitOnStopSignals,
  STOP_SIGNALS,
  type StopLogger,
  type StopSignal,
  type StopSignalOptions,
  stoppedLine,
} from './stop-signals.js';
export {
  InterruptedError,
  InvalidInputError,
  UsageError,
  WeakQueensError,
  WorkFailedError,
} from '../kernel/errors.js';
export { integerRange, parseIntegerOption } from './integer-option.js';
export {
  DASHBOARD_COMMAND_LINE,
  WORKER_COMMAND_LINE,
  workerConcurrency,
} from './process-command-lines.js';
// The one private redis-server of `npm start` and of every test suite.
export { RedisServer, type RedisServerOptions } from './redis-server.js';
export { RedisServerError } from '../contracts/redis-errors.js';
