// Entry point of a worker process (`wq worker` spawns this): config from env and flags,
// the service from its factory, and a graceful close on SIGINT/SIGTERM.
import {
  compileConfig,
  createLogger,
  InvalidInputError,
  positiveInteger,
  WeakQueensError,
} from '@weak-queens/shared';
import { startWorkerService } from './worker-service.js';

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
  const service = await startWorkerService({ config, logger });
  let signals = 0;
  const stop = (signal: NodeJS.Signals): void => {
    if (++signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    logger.info({ signal }, 'signal received');
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (err instanceof WeakQueensError) {
    process.stderr.write(`wq worker: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`wq worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
