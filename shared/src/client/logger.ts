// pino JSON logs on stderr (stdout carries results), pretty when stderr is a terminal.
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from '../contracts/config.js';

export type { Logger };

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly name?: string;
  /** Default: pretty when stderr is a terminal. */
  readonly pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base = { level: options.level ?? 'info', ...(options.name ? { name: options.name } : {}) };
  const wantPretty = options.pretty ?? process.stderr.isTTY === true;
  // Synchronous destinations: a worker that exits right after a log line still prints it.
  const stream = wantPretty
    ? pretty({ destination: 2, sync: true, colorize: true })
    : pino.destination({ dest: 2, sync: true });
  return pino(base, stream);
}
