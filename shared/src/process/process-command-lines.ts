// The command lines of the worker and dashboard processes. `wq worker` and `wq dashboard` check
// them (and print their help) before starting those processes, which parse them again: one
// definition for both sides, since the producer never imports the worker or the dashboard.
import type { CommandDefinition } from './command-line.js';
import { integerRange, parseIntegerOption } from './integer-option.js';

const MAX_CONCURRENCY = 1024;

export const WORKER_COMMAND_LINE = {
  name: 'wq worker',
  summary: 'process count and aggregate jobs from Redis (REDIS_URL) until Ctrl-C',
  options: {
    concurrency: {
      type: 'string',
      short: 'c',
      value: 'k',
      allowed: integerRange(1, MAX_CONCURRENCY),
      description: 'units computed at once (default WQ_CONCURRENCY or the number of cores)',
    },
  },
  notes: `SIGINT/SIGTERM/SIGHUP/SIGQUIT/SIGUSR2: stop taking jobs, let active units finish for
WQ_SHUTDOWN_GRACE_MS (10000), then hand the rest back to the queue; "wq worker: stopped by
SIGTERM" and exit 128 + the signal's number (143 for SIGTERM, 130 for Ctrl-C); a second signal
exits at once.

Until Redis answers the worker waits, with a log line every WQ_REDIS_WAIT_LOG_MS (30000).

A worker that dies or loses its link keeps its units locked for WQ_LOCK_MS (24000); the other
workers look for such units every WQ_STALLED_INTERVAL_MS (a quarter of the lock) and run them
again, so a dead worker's unit runs again within lock + interval (30 s by default), up to
WQ_MAX_STALLED (2) times per unit before it fails.`,
} as const satisfies CommandDefinition;

/** --concurrency as a number, or undefined when absent (the config then decides). */
export function workerConcurrency(value: string | undefined): number | undefined {
  return value === undefined
    ? undefined
    : parseIntegerOption('--concurrency', value, 1, MAX_CONCURRENCY);
}

export const DASHBOARD_COMMAND_LINE = {
  name: 'wq dashboard',
  summary: 'serve the web dashboard, JSON API and /metrics (Redis from REDIS_URL)',
  options: {
    port: {
      type: 'string',
      value: 'p',
      allowed: 'a port from 0 to 65535',
      description: 'port to listen on (default DASHBOARD_PORT or 3000; 0 picks a free one)',
    },
    host: {
      type: 'string',
      value: 'h',
      allowed: 'an address to bind, e.g. 127.0.0.1',
      description:
        'address to bind (default DASHBOARD_HOST or 127.0.0.1); any address other than\nloopback is refused unless DASHBOARD_TOKEN is set',
    },
  },
  notes: `DASHBOARD_TOKEN (at least 16 characters): every request then needs it, as
"Authorization: Bearer <token>" or through the login form (a session cookie).
Prints "dashboard: <url>" on stdout once listening; Ctrl-C, SIGTERM, SIGHUP, SIGQUIT or SIGUSR2
closes it (within WQ_SHUTDOWN_GRACE_MS, also with Redis down), then "wq dashboard: stopped by
SIGTERM" and exit 128 + the signal's number (143 for SIGTERM, 130 for Ctrl-C).`,
} as const satisfies CommandDefinition;
