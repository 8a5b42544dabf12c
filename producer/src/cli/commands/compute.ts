// wq compute <ns>: N(n, D) for every D and S(n), in this thread or on k worker threads.
import { availableParallelism } from 'node:os';
import { ALGORITHM_CHOICES, parseAlgorithm, MAX_N } from '@weak-queens/shared/kernel';
import { parseNSpec } from '@weak-queens/shared/contracts';
import { computeSizes } from '../../compute/compute-sizes.js';
import { parseCommandArgs, parseInteger } from '../args.js';
import type { Command } from '../command.js';
import { formatSizeJson, formatSizeTable } from '../format-table.js';
import { ProgressBar } from '../progress-bar.js';

/** More threads than this only adds memory; it is far above any machine this runs on. */
const MAX_THREADS = 1024;
const NS_ALLOWED = `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`;

const options = {
  json: { type: 'boolean' },
  algorithm: { type: 'string', allowed: `one of ${ALGORITHM_CHOICES.join(', ')}` },
  threads: { type: 'string', allowed: `an integer from 1 to ${MAX_THREADS}` },
} as const;

export const compute: Command = {
  name: 'compute',
  summary: 'exact N(n, D) for every attack depth D, and S(n)',
  help: `Usage: wq compute <ns> [--json] [--algorithm <name>] [--threads <k>]

Counts N(n, D), the placements of one queen per row on an n×n board whose queens attack
vertically and diagonally only up to D rows away, for every D from 0 to n-1, and their sum S(n).

Arguments:
  <ns>                 board sizes: "14", "4-12" or "4,6,10-12" (each from 1 to ${MAX_N})

Options:
  --json               one line per n: {"n":14,"S":"…","N":["…",…]} (N indexed by D,
                       every count a decimal string); nothing else on stdout
  --algorithm <name>   ${ALGORITHM_CHOICES.join(' | ')} (default auto: the cheapest
                       estimated algorithm per (n, D))
  --threads <k>        worker threads (default: the number of cores, here ${availableParallelism()});
                       1 counts in this process on one thread
  -h, --help           this text

Progress is drawn on stderr when it is a terminal.

Examples:
  wq compute 14
  wq compute 4-12 --json
  wq compute 4,6,10-12 --algorithm dfs --threads 2`,

  async run(args) {
    const { values, positionals } = parseCommandArgs(args, options, [
      { name: 'ns', allowed: NS_ALLOWED },
    ]);
    const ns = parseNSpec(positionals[0] ?? '');
    const algorithm = parseAlgorithm(values.algorithm ?? 'auto');
    const threads =
      values.threads === undefined
        ? availableParallelism()
        : parseInteger('threads', values.threads, 1, MAX_THREADS);
    const format = values.json ? formatSizeJson : formatSizeTable;

    const bar = new ProgressBar(`n = ${positionals[0] ?? ''}`);
    let first = true;
    await computeSizes(ns, {
      algorithm,
      threads,
      onProgress: bar.enabled ? (fraction) => bar.update(fraction) : undefined,
      onSize: (result) => {
        bar.clear();
        // Tables are separated by a blank line; JSON stays strictly one line per n.
        const separator = first || values.json ? '' : '\n';
        process.stdout.write(`${separator}${format(result)}\n`);
        first = false;
      },
    });
    bar.clear();
    return 0;
  },
};
