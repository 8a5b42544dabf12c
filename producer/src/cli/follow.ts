// Follows a sweep until it finishes: a progress bar on a terminal, plain lines otherwise (both
// on stderr), then the results on stdout as a table or JSON lines.
import type { PipelineClient } from '@weak-queens/shared/client';
import { resultsJsonLine } from '@weak-queens/shared/client';
import { progressLine, resultsTable, unfitLines } from './format.js';

export async function followSweep(
  client: PipelineClient,
  sweepId: string,
  options: { json: boolean; plainEveryMs?: number },
): Promise<void> {
  const tty = process.stderr.isTTY === true;
  let lastPlain = 0;
  // Units that fit no live worker are said once each time the list changes.
  let lastUnfit = '';
  const done = await client
    .waitFor(sweepId, {
      onProgress: (p) => {
        const unfit = unfitLines(p).join('\n');
        if (unfit !== lastUnfit) {
          lastUnfit = unfit;
          if (unfit) process.stderr.write(`${tty ? '\n' : ''}${unfit}\n`);
        }
        if (tty) {
          process.stderr.write(`\r${progressLine(p)}`);
        } else if (Date.now() - lastPlain >= (options.plainEveryMs ?? 5000)) {
          lastPlain = Date.now();
          process.stderr.write(`${progressLine(p)}\n`);
        }
      },
      onDisconnect: (err) => {
        process.stderr.write(`${tty ? '\n' : ''}lost Redis (${err.message}); waiting for it\n`);
      },
    })
    .finally(() => {
      if (tty) process.stderr.write('\n');
    });
  const results = await client.results(done.sweep.ns);
  process.stdout.write(
    options.json ? results.map((r) => resultsJsonLine(r) + '\n').join('') : resultsTable(results),
  );
}
