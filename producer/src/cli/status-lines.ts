// The text of `wq status`: one block per sweep (per-n progress, units no worker fits, what was
// not queued), the disagreements, and the live workers.
import {
  CLOCK_SKEW_WARN_MS,
  FORGED_REASON,
  notQueuedLine,
  type StatusReport,
  type WorkerInfo,
} from '@weak-queens/shared/client';
import { DEFAULT_PROBLEM, PROTOCOL_VERSION, protocolOf } from '@weak-queens/shared/contracts';
import { formatBytes, unfitLines } from './unfit-lines.js';

/** The share of a running sweep's work done, by core-seconds (shown while it runs). */
function work(done: number | undefined): string {
  return done === undefined || done >= 1 ? '' : `  work ${(done * 100).toFixed(1)} %`;
}

export function statusLines(report: StatusReport): string[] {
  const lines: string[] = [];
  for (const s of report.sweeps) {
    const cancelled = s.sweep.cancelledAt ? '  (cancelled)' : '';
    // Another build's sweep: its jobs are in queues this build does not read.
    const foreign =
      protocolOf(s.sweep) !== PROTOCOL_VERSION && s.done < s.total
        ? `  (protocol ${protocolOf(s.sweep)}: another build's sweep, followed by its wq status)`
        : '';
    // The default problem goes unnamed, as it did before there were others.
    const problem =
      s.sweep.problem && s.sweep.problem !== DEFAULT_PROBLEM ? `  ${s.sweep.problem}` : '';
    lines.push(
      `sweep ${s.sweep.id}${problem}  ${s.sweep.createdAt}  n done ${s.done}/${s.total}${work(s.workDone)}  units ${s.unitsDone}/${s.units}${s.etaSeconds === null ? '' : `  eta ${Math.ceil(s.etaSeconds)} s`}${cancelled}${foreign}`,
    );
    // An n its submission never queued has no jobs, which the progress reader cannot tell from
    // jobs removed: it is not cancelled, and the line below says how to queue it.
    const notQueued = new Set(s.notQueued?.ns ?? []);
    for (const size of s.sizes) {
      const n = `  n = ${String(size.n).padStart(2)}`;
      if (notQueued.has(size.n)) {
        lines.push(`${n}  not queued`);
        continue;
      }
      const result =
        size.Q !== undefined ? `Q = ${size.Q}  unique = ${size.unique}` : `S = ${size.S}`;
      const detail =
        size.state === 'done'
          ? result
          : `${size.unitsDone}/${size.units} units${size.reason ? `  ${size.reason}` : ''}`;
      lines.push(`${n}  ${size.state.padEnd(9)}  ${detail}`);
    }
    lines.push(...unfitLines(s).map((line) => `  ${line}`));
    if (s.notQueued) lines.push(`  ${notQueuedLine(s.sweep.id, s.notQueued)}`);
  }
  if (report.sweeps.length === 0) lines.push('no sweeps');
  // Records that do not verify under this key are said once, with the n they hold up: after a
  // key rotation that is every record, not a forgery each.
  const unsigned = report.disagreements.filter((d) => d.reason === FORGED_REASON);
  if (unsigned.length > 0) {
    const ns = [...new Set(unsigned.map((d) => d.n))].sort((a, b) => a - b);
    lines.push(
      `${unsigned.length} stored record(s) of n = ${ns.join(', ')} do not verify under this ` +
        'WQ_RESULT_KEY (signed with another key, or forged): not results; the next sweep of ' +
        'those n counts them again (rotating the key: docs/operations.md)',
    );
  }
  for (const d of report.disagreements.filter((x) => x.reason !== FORGED_REASON)) {
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
  lines.push(...otherProtocolLines(report.otherWorkers));
  for (const w of report.workers) {
    const memory = w.memoryBytes ? `  memory ${formatBytes(w.memoryBytes)}` : '';
    const slot = w.slotBytes ? ` (${formatBytes(w.slotBytes)} per slot)` : '';
    const version = w.build ? `  ${w.build}` : w.version ? `  v${w.version}` : '';
    lines.push(
      `  ${w.id}  host ${w.host}  slots ${w.concurrency}${memory}${slot}${version}  since ${w.startedAt}${clockLine(w)}`,
    );
  }
  return lines;
}

/** Workers of another build's protocol: live, but none of this build's jobs reach them. */
function otherProtocolLines(workers: readonly WorkerInfo[]): string[] {
  return workers.map(
    (w) =>
      `  ${w.id} (protocol ${protocolOf(w)}: another build${w.build ? ` ${w.build}` : w.version ? ` v${w.version}` : ''}, takes none of this build's jobs)`,
  );
}

/** A worker whose clock is off the Redis server's says by how much (its times are off as far). */
function clockLine(w: WorkerInfo): string {
  const skew = w.clockSkewMs;
  if (skew === undefined || Math.abs(skew) <= CLOCK_SKEW_WARN_MS) return '';
  const seconds = Math.round(Math.abs(skew) / 1000);
  return `  clock ${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} Redis`;
}
