// Options of a worker process, with defaults applied in one place.
import { hostname } from 'node:os';
import { InvalidInputError, withSlots, type WqConfig } from '@weak-queens/shared/contracts';
import { type Logger } from '@weak-queens/shared/client';

export interface WorkerServiceOptions {
  readonly config: WqConfig;
  readonly logger: Logger;
  /**
   * Units computed at once (threads); default config.concurrency. Another number of slots
   * shares the configured memory among them (`withSlots`).
   */
  readonly concurrency?: number;
  /** Name in heartbeats, job records and BullMQ; default `<host>-<pid>`. */
  readonly id?: string;
  /** Default config.shutdownGraceMs. */
  readonly shutdownGraceMs?: number;
  /** Shortest time between two progress updates of one job; default 1000 ms. */
  readonly progressIntervalMs?: number;
  /** Heartbeat period for `wq status`; default 5000 ms. */
  readonly heartbeatMs?: number;
}

export type CompiledWorkerServiceOptions = Required<WorkerServiceOptions>;

export function compileWorkerServiceOptions(
  options: WorkerServiceOptions,
): CompiledWorkerServiceOptions {
  const concurrency = options.concurrency ?? options.config.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    throw new InvalidInputError('concurrency', concurrency, 'an integer from 1 to 1024');
  }
  const id = options.id ?? `${hostname()}-${process.pid}`;
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(id)) {
    throw new InvalidInputError('id', id, 'letters, digits, "_", "-" and "."');
  }
  const shutdownGraceMs = options.shutdownGraceMs ?? options.config.shutdownGraceMs;
  if (!(shutdownGraceMs >= 0)) {
    throw new InvalidInputError('shutdownGraceMs', shutdownGraceMs, 'a number of ms ≥ 0');
  }
  return {
    config: { ...options.config, concurrency, ...withSlots(options.config, concurrency) },
    logger: options.logger,
    concurrency,
    id,
    shutdownGraceMs,
    progressIntervalMs: options.progressIntervalMs ?? 1000,
    heartbeatMs: options.heartbeatMs ?? 5000,
  };
}
