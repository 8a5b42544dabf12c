// `wq worker [--concurrency k]`: runs a worker process. The code lives in @weak-queens/worker,
// which the producer never imports: this resolves the worker's entry file and runs it with
// node, forwarding signals so Ctrl-C and SIGTERM close it gracefully.
import { runForwardingSignals, spawnWorkerProcess } from '../../embedded/worker-process.js';
import { parseFlags } from '../../pipeline/flags.js';
import type { Command } from '../command.js';
import { guarded } from './guarded.js';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'process count and aggregate jobs from Redis (REDIS_URL) until Ctrl-C',
  help: `usage: wq worker [--concurrency k]

  --concurrency k   units computed at once (default WQ_CONCURRENCY or the number of cores)

SIGINT/SIGTERM: stop taking jobs, let active units finish for WQ_SHUTDOWN_GRACE_MS (10000),
then hand the rest back to the queue.

A worker that dies or loses its link keeps its units locked for WQ_LOCK_MS (30000); the other
workers look for such units every WQ_STALLED_INTERVAL_MS (30000) and run them again, up to
WQ_MAX_STALLED (2) times per unit before it fails.`,
  run: (args) =>
    guarded('worker', async () => {
      parseFlags(args, { values: ['--concurrency'] });
      return runForwardingSignals(spawnWorkerProcess({ args }));
    }),
};
