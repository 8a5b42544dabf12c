// `wq sweep <ns> [--wait] [--json] [--verify] [--target-seconds s]`: enqueue one flow per n.
import {
  compileConfig,
  InvalidInputError,
  MAX_TARGET_SECONDS,
  parseProblem,
  parseTargetSeconds,
  PROBLEMS,
} from '@weak-queens/shared/contracts';
import { exitOnStopSignals, integerRange, parseIntegerOption } from '@weak-queens/shared/process';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { N_SPEC, parseSizes } from './n-spec.js';
import { problemView } from '../problem-views.js';

export const sweepCommand = defineCommand(
  {
    positionals: [N_SPEC],
    options: {
      wait: {
        type: 'boolean',
        description: 'follow progress, then print the results (like wq compute)',
      },
      json: {
        type: 'boolean',
        description: 'one JSON line per n (with --wait) or the submission as JSON',
      },
      verify: {
        type: 'boolean',
        description: `count every (n, D) a second time with another algorithm (the cheapest
other one that fits WQ_MAX_UNIT_BYTES), on another worker where there
is one; S(n) is published only if both agree, else the n fails with
both values (see wq status)`,
      },
      problem: {
        type: 'string',
        value: 'name',
        allowed: PROBLEMS.join(' or '),
        description: `weak (default): N(n, D) and S(n); classic: Q(n) and the boards distinct
under rotations and reflections, one flow per n over symmetry classes
of the outer rows (with --verify, a sample of units is counted again
by the other method; with --json, {"n":16,"Q":"…","unique":"…"})`,
      },
      sample: {
        type: 'string',
        value: 'k',
        allowed: integerRange(1, Number.MAX_SAFE_INTEGER),
        description:
          'with --problem classic --verify: recount k units, evenly spread (default all)',
      },
      'target-seconds': {
        type: 'string',
        value: 's',
        allowed: `a number of seconds > 0 and ≤ ${MAX_TARGET_SECONDS}`,
        description: `split an (n, D) into units of about s single-core seconds, a number
> 0 and ≤ ${MAX_TARGET_SECONDS} (default WQ_TARGET_SECONDS or 30)`,
      },
      'allow-huge': {
        type: 'boolean',
        description: `queue it even when its estimate is beyond WQ_MAX_SWEEP_CORE_SECONDS
(default a core-year); without it such a sweep is refused (exit 2)`,
      },
    },
    notes: `Values already in the result store are not recomputed; an n already queued is not added again.
With --wait, progress goes to stderr: a bar on a terminal, else a line every 10 s (or 10 %).
A stop signal ends the wait with "wq sweep: stopped by SIGINT" and exit 128 + its number (130
for Ctrl-C, 143 for SIGTERM); the sweep goes on (wq status, wq cancel <sweep>).`,
  },
  async ({ values, positionals }) => {
    const ns = parseSizes(positionals[0] ?? '');
    const target = values['target-seconds'];
    const config = compileConfig(process.env, {
      ...(target !== undefined
        ? { targetSeconds: parseTargetSeconds('--target-seconds', target) }
        : {}),
    });
    const problem = parseProblem(values.problem, '--problem');
    const sample =
      values.sample === undefined
        ? undefined
        : parseIntegerOption('--sample', values.sample, 1, Number.MAX_SAFE_INTEGER);
    const { problemNamed } = await import('@weak-queens/shared/client');
    if (sample !== undefined && !(problemNamed(problem).samples && values.verify)) {
      throw new InvalidInputError(
        '--sample',
        values.sample,
        'only with --problem classic --verify',
      );
    }
    // Following a sweep may take hours: a stop signal ends it in one line, the sweep goes on.
    if (values.wait) exitOnStopSignals('wq sweep');
    const client = await openPipelineClient(config, 'sweep');
    try {
      const view = await problemView(problem);
      return await view.sweep(
        client,
        ns,
        { ...values, sample, allowHuge: values['allow-huge'] },
        { config, command: 'wq sweep' },
      );
    } finally {
      await client.close();
    }
  },
);
