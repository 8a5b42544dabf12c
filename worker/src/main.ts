// Entry point of a worker process (`wq worker` spawns this): config from env and flags,
// the service from its factory, and a graceful close on SIGINT, SIGTERM and SIGHUP, or when the
// process that started it goes away (its IPC channel closes), so a worker is never orphaned.
import {
  compileConfig,
  InvalidInputError,
  positiveInteger,
  WeakQueensError,
} from '@weak-queens/shared/contracts';
import { createLogger } from '@weak-queens/shared/client';
import { startWorkerService, type WorkerService } from './worker-service.js';

const USAGE = 'usage: wq worker [--concurrency k]';

function parseArgs(argv: readonly string[]): { concurrency?: number } {
  let concurrency: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.split('=', 2);
    if (flag === '--concurrency' || flag === '-c') {
      const value = inline ?? argv[++i];
      concurrency = positiveInteger('--concurrency', value ?? '', 0, 1024);
      if (concurrency === 0)
        throw new InvalidInputError('--concurrency', value, 'an integer from 1 to 1024');
    } else {
      throw new InvalidInputError('argument', arg, `${USAGE}`);
    }
  }
  return concurrency === undefined ? {} : { concurrency };
}

async function main(): Promise<void> {
  const config = compileConfig(process.env, parseArgs(process.argv.slice(2)));
  const logger = createLogger({ level: config.logLevel, name: 'wq-worker' });
  // A signal while Redis is still awaited ends the wait; one after start closes the service.
  const waiting = new AbortController();
  let service: WorkerService | undefined = undefined;
  let stops = 0;
  const stop = (reason: string): void => {
    if (++stops > 1) {
      logger.warn({ reason }, 'second signal: exiting now');
      process.exit(130);
    }
    logger.info({ reason }, 'stopping');
    if (!service) {
      waiting.abort();
      process.exit(0);
    }
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  // Started with an IPC channel (by `wq worker` or `npm start`): when that parent dies, even by
  // kill -9, the channel closes and this worker hands its units back instead of living on.
  if (process.send !== undefined) process.once('disconnect', () => stop('parent exited'));
  service = await startWorkerService({ config, logger }, waiting.signal);
}

main().catch((err: unknown) => {
  if (err instanceof WeakQueensError) {
    process.stderr.write(`wq worker: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`wq worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
