// `wq status [--json] [--watch]`: every sweep with n done/total and per-n progress, and the live
// workers; with --watch again every few seconds, through Redis restarts, until Ctrl-C.
import type { StatusReport } from '@weak-queens/shared/client';
import { defineCommand } from '../command.js';

/** How often `wq status --watch` reads the status again. */
const WATCH_MS = 2000;

export const statusCommand = defineCommand(
  {
    options: {
      json: { type: 'boolean', description: 'the whole report as one JSON line' },
      watch: {
        type: 'boolean',
        description: `print it again every ${WATCH_MS / 1000} s until Ctrl-C, riding out Redis restarts
(gives up after WQ_REDIS_OUTAGE_MS, exit 1)`,
      },
    },
  },
  async ({ values }) => {
    // Watching never ends by itself: a stop signal ends it in one line and its exit code.
    if (values.watch) {
      const { exitOnStopSignals } = await import('@weak-queens/shared/process');
      exitOnStopSignals('wq status');
    }
    const { withPipelineClient } = await import('../pipeline-connection.js');
    const { statusLines } = await import('../status-lines.js');
    return withPipelineClient('status', async (client) => {
      await client.ping();
      const print = (report: StatusReport): void => {
        process.stdout.write(
          values.json ? JSON.stringify(report) + '\n' : statusLines(report).join('\n') + '\n',
        );
      };
      if (!values.watch) {
        print(await client.status());
        return 0;
      }
      const { outageRider } = await import('../follow.js');
      const { compileConfig } = await import('@weak-queens/shared/contracts');
      const rider = outageRider({ config: compileConfig(), command: 'wq status' });
      for (;;) {
        const report = await rider.run(() => client.status());
        // A terminal shows the latest report in place; a pipe gets them one after another.
        if (process.stdout.isTTY && !values.json) process.stdout.write('\x1b[H\x1b[2J');
        print(report);
        await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
      }
    });
  },
);
