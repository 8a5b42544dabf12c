// Submits and follows a sweep until it finishes: a progress bar on a terminal, a plain line at
// most every 10 s (or 10 %) otherwise (both on stderr), then the results on stdout as a table or
// JSON lines. A Redis restart or failover on the way is ridden out as the workers ride it: one
// line when it starts, and one error line only when it outlasts WQ_REDIS_OUTAGE_MS.
import {
  newSweepId,
  OutageRider,
  outageReason,
  type PipelineClient,
  type SweepProgress,
  type SweepSubmission,
} from '@weak-queens/shared/client';
import type { WqConfig } from '@weak-queens/shared/contracts';
import { ProgressBar } from './progress-bar.js';
import { resultsTable } from './results-table.js';
import { unfitLines } from './unfit-lines.js';

/** Who follows (for the lines it writes) and how long it waits through an outage. */
export interface FollowContext {
  readonly config: WqConfig;
  /** "wq sweep", "npm start": the prefix of the outage line. */
  readonly command: string;
  readonly stderr?: NodeJS.WritableStream;
  /**
   * Aborted when the follower is being stopped (`npm start` on a signal): the connection it
   * then loses is its own doing, not an outage to report.
   */
  readonly stopping?: AbortSignal;
}

/** The one line said when Redis goes away, once per outage. */
function outageLine(command: string, boundMs: number, err: Error): string {
  const reason = outageReason(err);
  return `${command}: Redis unavailable, retrying… (${reason}; giving up after ${Math.round(boundMs / 1000)} s)\n`;
}

/** A rider that says so on stderr (after `before`, e.g. clearing a progress bar). */
export function outageRider(context: FollowContext, before?: () => void): OutageRider {
  const { config, command } = context;
  const stderr = context.stderr ?? process.stderr;
  return new OutageRider({
    url: config.redisUrl,
    boundMs: config.redisOutageMs,
    onOutage: (err) => {
      if (context.stopping?.aborted) return;
      before?.();
      stderr.write(outageLine(command, config.redisOutageMs, err));
    },
  });
}

/**
 * Submits `ns` as one sweep, through a Redis outage: the sweep id is chosen first, so a
 * submission cut by the outage is finished under the same id (an n already queued is not
 * added again, a stored one not recomputed).
 */
export async function submitSweep(
  client: PipelineClient,
  ns: readonly number[],
  options: Omit<SubmitOptions, 'sweepId'>,
  context: FollowContext,
): Promise<SweepSubmission> {
  const sweepId = newSweepId();
  return outageRider(context).run(() => client.submit(ns, { ...options, sweepId }));
}

type SubmitOptions = NonNullable<Parameters<PipelineClient['submit']>[1]>;

export async function followSweep(
  client: PipelineClient,
  sweepId: string,
  options: { json: boolean } & FollowContext,
): Promise<void> {
  const { resultsJsonLine } = await import('@weak-queens/shared/client');
  const stderr = options.stderr ?? process.stderr;
  const bar = new ProgressBar({
    label: `sweep ${sweepId}`,
    plain: true,
    ...(options.stderr ? { stream: options.stderr } : {}),
  });
  const boundMs = options.config.redisOutageMs;
  // Units that fit no live worker are said once each time the list changes.
  let lastUnfit = '';
  const done = await client
    .waitFor(sweepId, {
      reconnectMs: boundMs,
      onProgress: (p) => {
        const unfit = unfitLines(p).join('\n');
        if (unfit !== lastUnfit) {
          lastUnfit = unfit;
          if (unfit) {
            bar.clear();
            stderr.write(`${unfit}\n`);
          }
        }
        bar.update(
          fractionDone(p),
          `${p.done}/${p.total} n  ${p.unitsDone}/${p.units} units${p.etaSeconds === null ? '' : `  eta ${Math.ceil(p.etaSeconds)} s`}`,
          p.done === p.total,
        );
      },
      onDisconnect: (err) => {
        if (options.stopping?.aborted) return;
        bar.clear();
        stderr.write(outageLine(options.command, boundMs, err));
      },
      onNoLiveWorker: () => {
        bar.clear();
        stderr.write(
          `${options.command}: no live worker: start one with \`wq worker\`; the sweep waits for it\n`,
        );
      },
    })
    .finally(() => bar.clear());
  const results = await outageRider(options).run(() => client.results(done.sweep.ns));
  process.stdout.write(
    options.json ? results.map((r) => resultsJsonLine(r) + '\n').join('') : resultsTable(results),
  );
}

/** The share of the work done (core-seconds); where it is unknown, units, or finished n. */
function fractionDone(p: SweepProgress): number {
  if (p.workDone !== undefined) return p.workDone;
  return p.units ? p.unitsDone / p.units : p.done / Math.max(1, p.total);
}
