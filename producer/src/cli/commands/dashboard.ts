// `wq dashboard [--port 3000] [--host 127.0.0.1]`: runs the web dashboard. Its code lives in
// @weak-queens/dashboard (which uses this package), so this runs its entry file with node,
// forwarding signals so Ctrl-C and SIGTERM close it gracefully.
import { runForwardingSignals } from '../../embedded/worker-process.js';
import { spawnDashboardProcess } from '../../embedded/dashboard-process.js';
import { onlyPositionals, parseFlags } from '../flags.js';
import type { Command } from '../command.js';
import { guarded } from './guarded.js';

export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: 'serve the web dashboard, JSON API and /metrics (Redis from REDIS_URL)',
  help: `usage: wq dashboard [--port 3000] [--host 127.0.0.1]

  --port p   port to listen on (default DASHBOARD_PORT or 3000; 0 picks a free one)
  --host h   address to bind (default DASHBOARD_HOST or 127.0.0.1); any address other than
             loopback is refused unless DASHBOARD_TOKEN is set

DASHBOARD_TOKEN (at least 16 characters): every request then needs it, as
"Authorization: Bearer <token>" or through the login form (a session cookie).
Prints "dashboard: <url>" on stdout once listening; Ctrl-C/SIGTERM/SIGHUP closes it (within
WQ_SHUTDOWN_GRACE_MS, also with Redis down).`,
  run: (args) =>
    guarded('dashboard', async () => {
      const flags = parseFlags(args, { values: ['--port', '--host'] });
      onlyPositionals(flags.positionals, []);
      return runForwardingSignals(spawnDashboardProcess({ args, detached: true }));
    }),
};
