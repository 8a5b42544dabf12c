// Entry point of `npm start`: parse flags, run the embedded pipeline, exit with its status.
// Flags: --n <ns> (default 1-14), --small (n = 1-10), --workers k, --json.
import { createLogger } from '@weak-queens/shared/client';
import {
  InvalidInputError,
  parseNSpec,
  positiveInteger,
  WeakQueensError,
} from '@weak-queens/shared/contracts';
import { runEmbedded } from './embedded/embedded-run.js';
import { STOP_SIGNALS } from './embedded/worker-process.js';
import { parseFlags } from './cli/flags.js';
import { SweepFailedError } from '@weak-queens/shared/client';

const DEFAULT_NS = '1-14';
const SMALL_NS = '1-10';

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2), {
    booleans: ['--small', '--json'],
    values: ['--n', '--workers'],
  });
  if (flags.positionals.length) {
    throw new InvalidInputError(
      'argument',
      flags.positionals.join(' '),
      'flags only: --n <ns>, --small, --workers k, --json',
    );
  }
  const spec = flags.values.get('--n') ?? (flags.booleans.has('--small') ? SMALL_NS : DEFAULT_NS);
  const ns = parseNSpec(spec, '--n');
  const workersFlag = flags.values.get('--workers');
  const logger = createLogger({ name: 'wq-start', level: 'info' });
  const controller = new AbortController();
  let interrupted = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    logger.info({ signal }, 'stopping');
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  try {
    return await runEmbedded({
      ns,
      logger,
      json: flags.booleans.has('--json'),
      signal: controller.signal,
      ...(workersFlag ? { workers: positiveInteger('--workers', workersFlag, 1, 256) } : {}),
    });
  } catch (err) {
    if (interrupted) return 130;
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Redis that stayed away is a failure (1), not bad input (2).
    const known =
      (err instanceof WeakQueensError && !err.retryable) || err instanceof SweepFailedError;
    process.stderr.write(`npm start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(known ? 2 : 1);
  },
);
