// Entry point of the `wq` binary (bin/wq.js loads it bundled: dist/bundle/wq.js).
//
// No SIGINT/SIGTERM handler on purpose: a computation holds no external state, so the default
// (exit at once, worker threads included) is the graceful close, and a handler could not run
// anyway while an in-process count (--threads 1) keeps the event loop busy. SIGQUIT and SIGUSR2
// are made to end it as SIGTERM does (a submission in progress is left recorded as interrupted).
import { EXIT_FAILED, endOnQuitLikeTerm } from '@weak-queens/shared/process';
import { createCli } from './cli.js';
import { commands } from './commands/index.js';

async function main(): Promise<void> {
  endOnQuitLikeTerm();
  // A reader that stops early (`wq boards 14 --all | head`) is not an error; the writer notices.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      process.stderr.write(`wq: cannot write output: ${error.message}\n`);
      process.exitCode = EXIT_FAILED;
    }
  });
  const cli = createCli({ commands, debug: Boolean(process.env.WQ_DEBUG) });
  process.exitCode = await cli.run(process.argv.slice(2));
  // The command is over: a connection still reconnecting (Redis went away while it closed)
  // must not keep the process alive. Unref'd, so a clean exit does not wait for it.
  setTimeout(() => process.exit(), LINGER_MS).unref();
}

/** How long a finished command may take to close its last connections. */
const LINGER_MS = 3000;

main().catch((error: unknown) => {
  process.stderr.write(`wq: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT_FAILED;
});
