// wq compute <ns>: N(n, D) for every D and S(n), in this thread or on k worker threads.
import { availableParallelism } from 'node:os';
import { ALGORITHM_CHOICES, parseAlgorithm, MAX_N } from '@weak-queens/shared/kernel';
import { integerRange, parseIntegerOption } from '@weak-queens/shared/process';
import { InvalidInputError } from '@weak-queens/shared/kernel';
import type { SizeResult } from '../../compute/size-totals.js';
import { defineCommand } from '../command.js';
import { ProgressBar } from '../progress-bar.js';
import { sizeTable } from '../results-table.js';

/** More threads than this only adds memory; it is far above any machine this runs on. */
const MAX_THREADS = 1024;

export const compute = defineCommand(
  {
    description: `Counts N(n, D), the placements of one queen per row on an n×n board whose queens attack
vertically and diagonally only up to D rows away, for every D from 0 to n-1, and their sum S(n).`,
    positionals: [
      {
        name: 'ns',
        allowed: `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`,
        description: `board sizes: "14", "4-12" or "4,6,10-12" (each from 1 to ${MAX_N})`,
      },
    ],
    options: {
      json: {
        type: 'boolean',
        description:
          'one line per n: {"n":14,"S":"…","N":["…",…]} (N indexed by D,\nevery count a decimal string); nothing else on stdout',
      },
      algorithm: {
        type: 'string',
        value: 'name',
        allowed: `one of ${ALGORITHM_CHOICES.join(', ')}`,
        default: 'auto',
        description: `${ALGORITHM_CHOICES.join(' | ')}; auto: the cheapest\nestimated algorithm per (n, D)`,
      },
      depths: {
        type: 'string',
        value: 'Ds',
        allowed: '"9", "9-11" or "0,9-11" (each below n)',
        description:
          'only these D of each n (e.g. an independent recount of some N(n, D) with\nanother --algorithm); S(n) is printed only when every D is counted',
      },
      threads: {
        type: 'string',
        value: 'k',
        allowed: integerRange(1, MAX_THREADS),
        description: `worker threads (default: the number of cores, here ${availableParallelism()});\n1 counts in this process on one thread`,
      },
    },
    notes: `Progress is drawn on stderr when it is a terminal.

Examples:
  wq compute 14
  wq compute 4-12 --json
  wq compute 4,6,10-12 --algorithm dfs --threads 2`,
  },
  async ({ values, positionals }) => {
    const { parseSizes } = await import('./n-spec.js');
    const ns = parseSizes(positionals[0] ?? '');
    const algorithm = parseAlgorithm(values.algorithm);
    const threads =
      values.threads === undefined
        ? availableParallelism()
        : parseIntegerOption('threads', values.threads, 1, MAX_THREADS);
    const depths = values.depths === undefined ? undefined : parseDepths(values.depths, ns);
    const format = values.json ? sizeJson : (r: SizeResult) => sizeTable(counts(r));
    const { computeMemory, computeSizes } = await import('../../compute/compute-sizes.js');

    // A quick count in a pipe prints nothing but its results: no plain progress lines here.
    const bar = new ProgressBar({ label: `n = ${positionals[0] ?? ''}` });
    let first = true;
    await computeSizes(ns, {
      algorithm,
      threads,
      // `auto` chooses within a worker's memory here, as the sweep planner does.
      memory: computeMemory(threads),
      ...(depths ? { depths } : {}),
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
);

function counts(result: SizeResult): { n: number; N: (string | undefined)[]; S?: string } {
  const N = result.counts.map((c) => c?.toString());
  return result.total === undefined
    ? { n: result.n, N }
    : { n: result.n, N, S: result.total.toString() };
}

/** The `--json` form: one line, big integers as decimal strings, N indexed by D (null: not counted). */
function sizeJson(result: SizeResult): string {
  const { n, N, S } = counts(result);
  return JSON.stringify({ n, S: S ?? null, N: N.map((v) => v ?? null) });
}

/** `--depths`: D values as an n-spec of D (0 allowed), each below every n asked for. */
function parseDepths(spec: string, ns: readonly number[]): Set<number> {
  const allowed = `"9", "9-11" or "0,9-11", each below ${Math.min(...ns)}`;
  const depths = new Set<number>();
  for (const part of spec.split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    const from = Number(match?.[1]);
    const to = Number(match?.[2] ?? match?.[1]);
    if (!match || from > to || to >= Math.min(...ns)) {
      throw new InvalidInputError('--depths', spec, allowed);
    }
    for (let d = from; d <= to; d++) depths.add(d);
  }
  return depths;
}
