// `wq worker [--concurrency k]`: runs a worker process. The code lives in @weak-queens/worker,
// which the producer never imports: this checks the command line the worker process shares
// (WORKER_COMMAND_LINE), resolves the worker's entry file and runs it with node, forwarding
// signals so Ctrl-C, SIGTERM, SIGHUP, SIGQUIT and SIGUSR2 close it gracefully.
import { WORKER_COMMAND_LINE, workerConcurrency } from '@weak-queens/shared/process';
import { runForwardingSignals, spawnWorkerProcess } from '../../embedded/worker-process.js';
import { defineCommand } from '../command.js';

export const workerCommand = defineCommand(WORKER_COMMAND_LINE, ({ values }) => {
  workerConcurrency(values.concurrency);
  return runForwardingSignals(
    spawnWorkerProcess({ args: workerArgs(values), detached: true }),
    'wq worker',
  );
});

function workerArgs(values: { concurrency: string | undefined }): string[] {
  return values.concurrency === undefined ? [] : ['--concurrency', values.concurrency];
}
