// pino JSON logs on stderr (stdout carries results), pretty when stderr is a terminal.
//
// pino and pino-pretty are loaded when a logger is first made, not when this module is: every
// importer of @weak-queens/shared/client gets this module, and `wq sweep` (which logs nothing)
// would pay for both on each run. Both are CommonJS, so a synchronous require serves.
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type Pretty from 'pino-pretty';
import type { LogLevel } from '../contracts/config.js';

export type { Logger };

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly name?: string;
  /** Default: pretty when stderr is a terminal. */
  readonly pretty?: boolean;
}

const require = createRequire(import.meta.url);

export function createLogger(options: LoggerOptions = {}): Logger {
  const { pino } = require('pino') as typeof import('pino');
  const base = { level: options.level ?? 'info', ...(options.name ? { name: options.name } : {}) };
  const wantPretty = options.pretty ?? process.stderr.isTTY === true;
  // Synchronous destinations: a worker that exits right after a log line still prints it.
  const stream = wantPretty
    ? (require('pino-pretty') as typeof Pretty)({ destination: 2, sync: true, colorize: true })
    : pino.destination({ dest: 2, sync: true });
  return pino(base, stream);
}
