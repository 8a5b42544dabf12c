// `wq results <ns> [--json|--csv]`: what the result store holds; missing values show as missing.
// `wq results [<ns>] --export <file>` and `wq results --import <file>` move results between
// stores as JSON lines with their provenance (see result-transfer.ts in the client).
import { readFileSync, writeFileSync } from 'node:fs';
import {
  compileConfig,
  InvalidInputError,
  parseProblem,
  PROBLEMS,
} from '@weak-queens/shared/contracts';
import type { ImportRefusedError } from '@weak-queens/shared/client';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { problemView } from '../problem-views.js';
import { N_SPEC, parseSizes } from './n-spec.js';

export const resultsCommand = defineCommand(
  {
    positionals: [{ ...N_SPEC, optional: true }],
    options: {
      json: {
        type: 'boolean',
        description: 'one line per n: {"n":14,"S":"…","N":["…",…]} (null where missing)',
      },
      csv: {
        type: 'boolean',
        description: 'n,D,value rows (D = S for the sum; empty where missing)',
      },
      problem: {
        type: 'string',
        value: 'name',
        allowed: PROBLEMS.join(' or '),
        description:
          'weak (default) or classic: Q(n) and the classes, {"n":16,"Q":"…","unique":"…"} with --json;\nwith --export, every classic unit with its subtotals (problem: "classic"); --import loads them',
      },
      export: {
        type: 'string',
        value: 'file',
        allowed: 'a file to write ("-" for stdout)',
        description:
          'write every stored result of <ns> (default: all) with its provenance as JSON lines:\nunits, N(n, D) and S(n) with the workers, algorithms, seconds and second counts',
      },
      import: {
        type: 'string',
        value: 'file',
        allowed: 'a file written by --export ("-" for stdin)',
        description:
          'load results written by --export; a malformed line, one that disagrees with a\npublished value or conflicts with a stored one refuses the whole file (exit 2)',
      },
      trust: {
        type: 'boolean',
        description:
          'with --import: take lines without a MAC this WQ_RESULT_KEY verifies as results;\nwithout it such units are counted again before use and such N(n, D), S(n), Q(n) refused',
      },
      units: {
        type: 'boolean',
        description:
          'with --import: take the units and their plans only, leave N(n, D) and S(n) out;\nhow a sweep in progress moves to a store without its key: units nobody here vouches for\nstay unverified, and `wq sweep <ns> --verify` counts only what is missing, vouching for\nthem when its second count agrees',
      },
    },
    notes: `Exit code 1 when nothing is shown for the sizes asked (also with --export, for an export
of nothing), with one line on stderr saying whether nothing is stored or what is stored is not
borne out; the table, JSON or CSV still shows each of them as missing.`,
  },
  async ({ values, positionals }) => {
    const formats = [
      values.json,
      values.csv,
      values.export !== undefined,
      values.import !== undefined,
    ];
    if (formats.filter(Boolean).length > 1) {
      throw new InvalidInputError('format', 'several', 'one of --json, --csv, --export, --import');
    }
    if (values.units && values.import === undefined) {
      throw new InvalidInputError('--units', true, 'only with --import');
    }
    if (values.import !== undefined && positionals[0] !== undefined) {
      throw new InvalidInputError(
        'argument',
        positionals[0],
        'no <ns> with --import (the file says)',
      );
    }
    if (
      values.import === undefined &&
      values.export === undefined &&
      positionals[0] === undefined
    ) {
      throw new InvalidInputError('ns', '', N_SPEC.allowed);
    }
    const ns = positionals[0] === undefined ? undefined : parseSizes(positionals[0]);
    const problem = parseProblem(values.problem, '--problem');
    const client = await openPipelineClient(compileConfig(), 'results');
    try {
      await client.ping();
      const transfer = await import('@weak-queens/shared/client');
      const view = await problemView(problem);
      return await view.results(client, ns, values, { transfer, writeExport, importFile });
    } finally {
      await client.close();
    }
  },
);

/** Bad lines an import refusal lists; the count says how many there are in all. */
const MAX_REFUSED_SHOWN = 20;

/** Writes export lines to a file (saying how many) or, for `-`, to stdout. */
function writeExport(target: string, lines: readonly string[]): void {
  if (target === '-') {
    process.stdout.write(lines.join(''));
    return;
  }
  writeFileSync(target, lines.join(''));
  process.stderr.write(`wrote ${lines.length} lines to ${target}\n`);
}

/**
 * Imports a file (or stdin for `-`) with `load`; a refused file prints every bad line with its
 * number and exits 2: it must be fixed, not retried.
 */
async function importFile(
  source: string,
  Refused: typeof ImportRefusedError,
  load: (lines: string[]) => Promise<string>,
): Promise<number> {
  const text = readFileSync(source === '-' ? 0 : source, 'utf8');
  try {
    process.stdout.write((await load(text.split('\n'))) + '\n');
    return 0;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    // A file signed under another key fails on every line: the first few say it.
    const shown = err.refused.slice(0, MAX_REFUSED_SHOWN);
    const more = err.refused.length - shown.length;
    process.stderr.write(
      `wq results: ${source}: import refused, nothing written (${err.refused.length} bad lines)\n` +
        shown.map((r) => `  line ${r.line}: ${r.reason}\n`).join('') +
        (more > 0 ? `  … and ${more} more\n` : ''),
    );
    return 2;
  }
}
