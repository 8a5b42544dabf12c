// `wq results <ns> [--json|--csv]`: what the result store holds; missing values show as missing.
import { compileConfig, InvalidInputError, parseNSpec } from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { resultsTable } from '../results-table.js';
import { N_SPEC } from './n-spec.js';

export const resultsCommand = defineCommand(
  {
    name: 'wq results',
    summary: 'print N(n, D) and S(n) from the result store (missing values shown as missing)',
    positionals: [N_SPEC],
    options: {
      json: {
        type: 'boolean',
        description: 'one line per n: {"n":14,"S":"…","N":["…",…]} (null where missing)',
      },
      csv: {
        type: 'boolean',
        description: 'n,D,value rows (D = S for the sum; empty where missing)',
      },
    },
  },
  async ({ values, positionals }) => {
    if (values.json && values.csv) {
      throw new InvalidInputError('format', '--json --csv', 'one of --json or --csv');
    }
    const ns = parseNSpec(positionals[0] ?? '');
    const client = await openPipelineClient(compileConfig(), 'results');
    try {
      await client.ping();
      const results = await client.results(ns);
      const { resultsCsv, resultsJsonLine } = await import('@weak-queens/shared/client');
      if (values.json) {
        process.stdout.write(results.map((r) => resultsJsonLine(r) + '\n').join(''));
      } else if (values.csv) {
        process.stdout.write(resultsCsv(results));
      } else {
        process.stdout.write(resultsTable(results));
      }
      return 0;
    } finally {
      await client.close();
    }
  },
);
