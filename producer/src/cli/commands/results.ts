// `wq results <ns> [--json|--csv]`: what the result store holds; missing values show as missing.
import { compileConfig, InvalidInputError, parseNSpec } from '@weak-queens/shared/contracts';
import { onlyPositionals, parseFlags } from '../flags.js';
import { resultsCsv, resultsJsonLine } from '@weak-queens/shared/client';
import { resultsTable } from '../format.js';
import type { Command } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { guarded } from './guarded.js';

export const resultsCommand: Command = {
  name: 'results',
  summary: 'print N(n, D) and S(n) from the result store (missing values shown as missing)',
  help: `usage: wq results <ns> [--json|--csv]

  --json   one line per n: {"n":14,"S":"…","N":["…",…]} (null where missing)
  --csv    n,D,value rows (D = S for the sum; empty where missing)`,
  run: (args) =>
    guarded('results', async () => {
      const flags = parseFlags(args, { booleans: ['--json', '--csv'] });
      if (flags.booleans.has('--json') && flags.booleans.has('--csv')) {
        throw new InvalidInputError('format', '--json --csv', 'one of --json or --csv');
      }
      const [spec] = onlyPositionals(flags.positionals, ['ns']);
      const ns = parseNSpec(spec ?? '');
      const client = await openPipelineClient(compileConfig(), 'results');
      try {
        await client.ping();
        const results = await client.results(ns);
        if (flags.booleans.has('--json')) {
          process.stdout.write(results.map((r) => resultsJsonLine(r) + '\n').join(''));
        } else if (flags.booleans.has('--csv')) {
          process.stdout.write(resultsCsv(results));
        } else {
          process.stdout.write(resultsTable(results));
        }
        return 0;
      } finally {
        await client.close();
      }
    }),
};
