// `wq dashboard [--port 3000] [--host 127.0.0.1]`: runs the web dashboard. Its code lives in
// @weak-queens/dashboard, so this checks the command line the dashboard process shares
// (DASHBOARD_COMMAND_LINE) and runs its entry file with node, forwarding signals so Ctrl-C and
// SIGTERM close it gracefully.
import { DASHBOARD_COMMAND_LINE } from '@weak-queens/shared/process';
import { runForwardingSignals } from '../../embedded/worker-process.js';
import { spawnDashboardProcess } from '../../embedded/dashboard-process.js';
import { defineCommand } from '../command.js';

export const dashboardCommand = defineCommand(DASHBOARD_COMMAND_LINE, ({ values }) => {
  const args = Object.entries(values).flatMap(([name, value]) =>
    value === undefined ? [] : [`--${name}`, value],
  );
  return runForwardingSignals(spawnDashboardProcess({ args, detached: true }), 'wq dashboard');
});
