// `wq status [--json] [--watch]`: every sweep with n done/total and per-n progress, and the live
// workers; with --watch again every few seconds, through Redis restarts, until Ctrl-C.
import {
  CLOCK_SKEW_WARN_MS,
  notQueuedLine,
  type StatusReport,
  type WorkerInfo,
} from '@weak-queens/shared/client';
import { compileConfig, DEFAULT_PROBLEM } from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { withPipelineClient } from '../pipeline-connection.js';
import { formatBytes, unfitLines } from '../unfit-lines.js';

/** How often `wq status --watch` reads the status again. */
const WATCH_MS = 2000;

/** A worker whose clock is off the Redis server's says by how much (its times are off as far). */
function clockLine(w: WorkerInfo): string {
  const skew = w.clockSkewMs;
  if (skew === undefined || Math.abs(skew) <= CLOCK_SKEW_WARN_MS) return '';
  const seconds = Math.round(Math.abs(skew) / 1000);
  return `  clock ${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} Redis`;
}

export const statusCommand = defineCommand(
  {
    name: 'wq status',
    summary: 'show sweeps (n done/total, per-n progress) and live workers',
    options: {
      json: { type: 'boolean', description: 'the whole report as one JSON line' },
      watch: {
        type: 'boolean',
        description: `print it again every ${WATCH_MS / 1000} s until Ctrl-C, riding out Redis restarts
(gives up after WQ_REDIS_OUTAGE_MS, exit 1)`,
      },
    },
  },
  async ({ values }) =>
    withPipelineClient('status', async (client) => {
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
      const rider = outageRider({ config: compileConfig(), command: 'wq status' });
      for (;;) {
        const report = await rider.run(() => client.status());
        // A terminal shows the latest report in place; a pipe gets them one after another.
        if (process.stdout.isTTY && !values.json) process.stdout.write('\x1b[H\x1b[2J');
        print(report);
        await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
      }
    }),
);

function statusLines(report: StatusReport): string[] {
  const lines: string[] = [];
  for (const s of report.sweeps) {
    const cancelled = s.sweep.cancelledAt ? '  (cancelled)' : '';
    // The default problem goes unnamed, as it did before there were others.
    const problem =
      s.sweep.problem && s.sweep.problem !== DEFAULT_PROBLEM ? `  ${s.sweep.problem}` : '';
    lines.push(
      `sweep ${s.sweep.id}${problem}  ${s.sweep.createdAt}  n done ${s.done}/${s.total}  units ${s.unitsDone}/${s.units}${s.etaSeconds === null ? '' : `  eta ${Math.ceil(s.etaSeconds)} s`}${cancelled}`,
    );
    for (const size of s.sizes) {
      const result =
        size.Q !== undefined ? `Q = ${size.Q}  unique = ${size.unique}` : `S = ${size.S}`;
      const detail =
        size.state === 'done'
          ? result
          : `${size.unitsDone}/${size.units} units${size.reason ? `  ${size.reason}` : ''}`;
      lines.push(`  n = ${String(size.n).padStart(2)}  ${size.state.padEnd(9)}  ${detail}`);
    }
    lines.push(...unfitLines(s).map((line) => `  ${line}`));
    if (s.notQueued) lines.push(`  ${notQueuedLine(s.sweep.id, s.notQueued)}`);
  }
  if (report.sweeps.length === 0) lines.push('no sweeps');
  for (const d of report.disagreements) {
    lines.push(
      d.reason
        ? `disagreement: ${d.unit === '#S' ? `S(${d.n})` : d.unit === '#N' ? `N(${d.n}, ${d.depth})` : `unit ${d.unit} of N(${d.n}, ${d.depth})`} stored as ${d.stored}: ${d.reason}; wq verify ${d.n} --repair`
        : `disagreement: unit ${d.unit} of N(${d.n}, ${d.depth}) counted ${d.stored} (${d.storedWorker}) and ${d.counted} (${d.countedWorker}); wq verify ${d.n} --repair`,
    );
  }
  if (!report.authenticated) {
    lines.push(
      'results: unauthenticated (WQ_RESULT_KEY is not set: anyone who can write to Redis can forge a record that passes every check)',
    );
  }
  lines.push(`workers: ${report.workers.length} live`);
  for (const w of report.workers) {
    const memory = w.memoryBytes ? `  memory ${formatBytes(w.memoryBytes)}` : '';
    const slot = w.slotBytes ? ` (${formatBytes(w.slotBytes)} per slot)` : '';
    const version = w.version ? `  v${w.version}` : '';
    lines.push(
      `  ${w.id}  host ${w.host}  slots ${w.concurrency}${memory}${slot}${version}  since ${w.startedAt}${clockLine(w)}`,
    );
  }
  return lines;
}
