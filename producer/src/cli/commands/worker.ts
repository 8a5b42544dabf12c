// `wq worker [--concurrency k]`: runs a worker process. The code lives in @weak-queens/worker,
// which the producer never imports: this resolves the worker's entry file and runs it with
// node, forwarding signals so Ctrl-C, SIGTERM and SIGHUP close it gracefully.
import { runForwardingSignals, spawnWorkerProcess } from '../../embedded/worker-process.js';
import { onlyPositionals, parseFlags } from '../flags.js';
import { positiveInteger } from '@weak-queens/shared/contracts';
import type { Command } from '../command.js';
import { guarded } from './guarded.js';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'process count and aggregate jobs from Redis (REDIS_URL) until Ctrl-C',
  help: `usage: wq worker [--concurrency k]

  --concurrency k   units computed at once (default WQ_CONCURRENCY or the number of cores)

SIGINT/SIGTERM/SIGHUP: stop taking jobs, let active units finish for WQ_SHUTDOWN_GRACE_MS
(10000), then hand the rest back to the queue.

Until Redis answers the worker waits, with a log line every WQ_REDIS_WAIT_LOG_MS (30000).

A worker that dies or loses its link keeps its units locked for WQ_LOCK_MS (24000); the other
workers look for such units every WQ_STALLED_INTERVAL_MS (a quarter of the lock) and run them
again, so a dead worker's unit runs again within lock + interval (30 s by default), up to
WQ_MAX_STALLED (2) times per unit before it fails.`,
  run: (args) =>
    guarded('worker', async () => {
      const flags = parseFlags(args, { values: ['--concurrency'] });
      onlyPositionals(flags.positionals, []);
      const concurrency = flags.values.get('--concurrency');
      if (concurrency !== undefined) positiveInteger('--concurrency', concurrency, 1, 1024);
      return runForwardingSignals(spawnWorkerProcess({ args, detached: true }));
    }),
};
