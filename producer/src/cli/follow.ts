// Follows a sweep until it finishes: a progress bar on a terminal, a plain line at most every
// 10 s (or 10 %) otherwise (both on stderr), then the results on stdout as a table or JSON lines.
import type { PipelineClient, SweepProgress } from '@weak-queens/shared/client';
import { ProgressBar } from './progress-bar.js';
import { resultsTable } from './results-table.js';
import { unfitLines } from './unfit-lines.js';

export async function followSweep(
  client: PipelineClient,
  sweepId: string,
  options: { json: boolean; stderr?: NodeJS.WriteStream },
): Promise<void> {
  const { resultsJsonLine } = await import('@weak-queens/shared/client');
  const bar = new ProgressBar({
    label: `sweep ${sweepId}`,
    plain: true,
    ...(options.stderr ? { stream: options.stderr } : {}),
  });
  const stderr = options.stderr ?? process.stderr;
  // Units that fit no live worker are said once each time the list changes.
  let lastUnfit = '';
  const done = await client
    .waitFor(sweepId, {
      onProgress: (p) => {
        const unfit = unfitLines(p).join('\n');
        if (unfit !== lastUnfit) {
          lastUnfit = unfit;
          if (unfit) {
            bar.clear();
            stderr.write(`${unfit}\n`);
          }
        }
        bar.update(fractionDone(p), `${p.done}/${p.total} n  ${p.unitsDone}/${p.units} units`);
      },
      onDisconnect: (err) => {
        bar.clear();
        stderr.write(`lost Redis (${err.message}); waiting for it\n`);
      },
    })
    .finally(() => bar.clear());
  const results = await client.results(done.sweep.ns);
  process.stdout.write(
    options.json ? results.map((r) => resultsJsonLine(r) + '\n').join('') : resultsTable(results),
  );
}

/** Units tell progress best; before the plan is known, finished n do. */
function fractionDone(p: SweepProgress): number {
  return p.units ? p.unitsDone / p.units : p.done / Math.max(1, p.total);
}
