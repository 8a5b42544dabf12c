// Entry point of a worker process (`wq worker` spawns this): config from env and flags, the
// service from its factory, and a graceful close on every stop signal (SIGINT, SIGTERM, SIGHUP,
// SIGQUIT, SIGUSR2), or when the process that started it goes away (its IPC channel closes), so
// a worker is never orphaned.
import {
  closeOnStopSignals,
  parseCommandLine,
  reportFailure,
  WORKER_COMMAND_LINE,
  workerConcurrency,
} from '@weak-queens/shared/process';
import { compileConfig } from '@weak-queens/shared/contracts';
import { createLogger } from '@weak-queens/shared/client';
import { startWorkerService, type WorkerService } from './worker-service.js';

/** The command line `wq worker` checked and passed on (the same definition on both sides). */
function flags(argv: readonly string[]): { concurrency?: number } {
  const concurrency = workerConcurrency(
    parseCommandLine(WORKER_COMMAND_LINE, argv).values.concurrency,
  );
  return concurrency === undefined ? {} : { concurrency };
}

async function main(): Promise<void> {
  const config = compileConfig(process.env, flags(process.argv.slice(2)));
  const logger = createLogger({ level: config.logLevel, name: 'wq-worker' });
  // A signal while Redis is still awaited ends the wait; one after start closes the service.
  const waiting = new AbortController();
  let service: WorkerService | undefined = undefined;
  closeOnStopSignals({
    logger,
    message: 'stopping',
    close: () => {
      if (service) return service.close();
      waiting.abort();
      return undefined;
    },
  });
  service = await startWorkerService({ config, logger }, waiting.signal);
}

main().catch((err: unknown) => process.exit(reportFailure('wq worker', err)));
