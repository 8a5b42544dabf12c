// Entry point of the `wq` binary (bin/wq.js runs it bundled: dist/bundle/wq.cjs).
//
// No SIGINT/SIGTERM handler here on purpose: a computation holds no external state, so the
// default (exit at once, worker threads included) is the graceful close, and a handler could not
// run anyway while an in-process count (--threads 1) keeps the event loop busy. SIGQUIT and
// SIGUSR2 are made to end it as SIGTERM does. The commands that run until stopped (`wq worker`,
// `wq dashboard`, `wq sweep --wait`, `wq status --watch`) answer every stop signal themselves,
// with one line and 128 + its number.
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
  // The command is over and has closed what it opened: it ends here, once what it wrote is
  // handed over. Left to end on its own, Node would first free every page of the heap (a third
  // of the time from a sweep's last output to its exit), and a connection still reconnecting
  // (Redis went away while it closed) would keep the process alive.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

/** Resolves once everything written to the stream before has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

main().catch((error: unknown) => {
  process.stderr.write(`wq: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT_FAILED;
});
