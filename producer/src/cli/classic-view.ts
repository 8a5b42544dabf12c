// `wq sweep` and `wq results` for the classic problem: Q(n) and the classes.
import { InvalidInputError } from '@weak-queens/shared/contracts';
import {
  nothingShown,
  type ProblemView,
  reportSubmission,
  unverifiedNote,
} from './problem-views.js';

export const classicView: ProblemView = {
  /** The flows, then (with --wait) Q(n) and the classes. */
  async sweep(client, ns, options) {
    const submission = await client.submitClassic(ns, {
      ...(options.verify ? { verify: true } : {}),
      ...(options.sample !== undefined ? { sample: options.sample } : {}),
    });
    if (!reportSubmission(`classic sweep ${submission.sweepId}`, submission, options)) return 0;
    const { ProgressBar } = await import('./progress-bar.js');
    const { classicJsonLine, classicTable } = await import('./classic-output.js');
    const bar = new ProgressBar({ label: `classic ${submission.sweepId}`, plain: true });
    const results = await client
      .waitForClassic(ns, {
        sweepId: submission.sweepId,
        onTick: (done, unitsDone, units) =>
          bar.update(
            units ? unitsDone / units : done / ns.length,
            `${done}/${ns.length} n  ${unitsDone}/${units} units`,
          ),
      })
      .finally(() => bar.clear());
    process.stdout.write(
      options.json
        ? ns.map((n) => classicJsonLine(n, results.get(n)) + '\n').join('')
        : classicTable(ns, results),
    );
    return 0;
  },
  async results(client, ns, values, { transfer, writeExport, importFile }) {
    if (values.csv) {
      throw new InvalidInputError(
        '--problem',
        'classic',
        'with --json, --export, --import or a table',
      );
    }
    const output = await import('./classic-output.js');
    if (values.import !== undefined) {
      return importFile(values.import, transfer.ImportRefusedError, async (lines) => {
        const summary = await transfer.importClassicResults(client.classic, lines, {
          trust: values.trust === true,
        });
        return (
          `imported ${summary.results} Q(n), ${summary.units} units` +
          ` (${summary.alreadyStored} already stored with the same counts)` +
          unverifiedNote(summary.unverified)
        );
      });
    }
    if (values.export !== undefined) {
      const lines = await transfer.classicExportLines(client.classic, ns);
      writeExport(values.export, lines);
      return lines.length === 0 ? nothingShown(transfer, ns) : 0;
    }
    const results = await client.classicResults(ns ?? []);
    process.stdout.write(
      values.json
        ? (ns ?? []).map((n) => output.classicJsonLine(n, results.get(n)) + '\n').join('')
        : output.classicTable(ns ?? [], results),
    );
    if (results.size > 0) return 0;
    // A Q(n) there that is not shown (a forgery, a record of another key) is not "nothing".
    const held = await Promise.all((ns ?? []).map((n) => client.classic.resultsStored([n])));
    return nothingShown(
      transfer,
      ns,
      (ns ?? []).filter((_, i) => held[i]),
    );
  },
};
