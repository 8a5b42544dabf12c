// `wq sweep` and `wq results` for the weak problem: N(n, D) and S(n).
import { planningReporter } from './planning-reporter.js';
import {
  nothingShown,
  type ProblemView,
  reportSubmission,
  unverifiedNote,
} from './problem-views.js';
import { resultsTable } from './results-table.js';

export const weakView: ProblemView = {
  async sweep(client, ns, request, context) {
    const { followSweep, submitSweep } = await import('./follow.js');
    // With --wait the user has said they will wait: a Redis restart meanwhile is ridden out.
    const submitOptions = {
      verify: request.verify,
      allowHuge: request.allowHuge,
      onPlanning: planningReporter('wq sweep'),
    };
    const submission = request.wait
      ? await submitSweep(client, ns, submitOptions, context)
      : await client.submit(ns, submitOptions);
    if (!reportSubmission(`sweep ${submission.sweep.id}`, submission, request)) return 0;
    await followSweep(client, submission.sweep.id, { json: request.json ?? false, ...context });
    return 0;
  },
  async results(client, ns, values, { transfer, writeExport, importFile }) {
    if (values.import !== undefined) {
      return importFile(values.import, transfer.ImportRefusedError, async (lines) => {
        const summary = await transfer.importResults(client.store, lines, {
          trust: values.trust === true,
          units: values.units === true,
        });
        return (
          `imported ${summary.sums} S(n), ${summary.depths} N(n, D), ${summary.units} units` +
          `, ${summary.plans} plans` +
          ` (${summary.alreadyStored} already stored with the same value` +
          (summary.leftOut > 0 ? `; ${summary.leftOut} N(n, D) and S(n) lines left out` : '') +
          ')' +
          unverifiedNote(summary.unverified)
        );
      });
    }
    if (values.export !== undefined) {
      const lines: string[] = [];
      for await (const line of transfer.exportResults(client.store, ns)) lines.push(line);
      writeExport(values.export, lines);
      return lines.length === 0 ? nothingShown(transfer, ns) : 0;
    }
    const results = await client.results(ns ?? []);
    if (values.json) {
      process.stdout.write(results.map((r) => transfer.resultsJsonLine(r) + '\n').join(''));
    } else if (values.csv) {
      process.stdout.write(transfer.resultsCsv(results));
    } else {
      process.stdout.write(resultsTable(results));
    }
    if (results.some((r) => r.S !== undefined || r.N.some((v) => v !== undefined))) return 0;
    return nothingShown(transfer, ns, await client.store.storedSizes(ns ?? []));
  },
};
