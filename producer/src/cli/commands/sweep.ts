// `wq sweep <ns> [--wait] [--json] [--verify] [--target-seconds s]`: enqueue one flow per n.
import {
  compileConfig,
  InvalidInputError,
  MAX_TARGET_SECONDS,
  parseNSpec,
  parseProblem,
  parseTargetSeconds,
  PROBLEMS,
} from '@weak-queens/shared/contracts';
import type { PipelineClient } from '@weak-queens/shared/client';
import { integerRange, parseIntegerOption } from '@weak-queens/shared/process';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { N_SPEC } from './n-spec.js';
import { planningReporter } from '../planning-reporter.js';

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
With --wait, progress goes to stderr: a bar on a terminal, else a line every 10 s (or 10 %).`,
  },
  async ({ values, positionals }) => {
    const ns = parseNSpec(positionals[0] ?? '');
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
    if (sample !== undefined && !(problem === 'classic' && values.verify)) {
      throw new InvalidInputError(
        '--sample',
        values.sample,
        'only with --problem classic --verify',
      );
    }
    const client = await openPipelineClient(config, 'sweep');
    try {
      if (problem === 'classic') {
        return await classicSweep(client, ns, { ...values, sample });
      }
      const { followSweep, submitSweep } = await import('../follow.js');
      // With --wait the user has said they will wait: a Redis restart meanwhile is ridden out.
      const context = { config, command: 'wq sweep' };
      const submitOptions = {
        verify: values.verify,
        allowHuge: values['allow-huge'],
        onPlanning: planningReporter('wq sweep'),
      };
      const submission = values.wait
        ? await submitSweep(client, ns, submitOptions, context)
        : await client.submit(ns, submitOptions);
      if (!reportSubmission(`sweep ${submission.sweep.id}`, submission, values)) return 0;
      await followSweep(client, submission.sweep.id, { json: values.json, ...context });
      return 0;
    } finally {
      await client.close();
    }
  },
);

/** `wq sweep <ns> --problem classic`: the flows, then (with --wait) Q(n) and the classes. */
async function classicSweep(
  client: PipelineClient,
  ns: readonly number[],
  options: { wait?: boolean; json?: boolean; verify?: boolean; sample?: number | undefined },
): Promise<number> {
  const submission = await client.submitClassic(ns, {
    ...(options.verify ? { verify: true } : {}),
    ...(options.sample !== undefined ? { sample: options.sample } : {}),
  });
  if (!reportSubmission(`classic sweep ${submission.sweepId}`, submission, options)) return 0;
  const { ProgressBar } = await import('../progress-bar.js');
  const { classicJsonLine, classicTable } = await import('../classic-output.js');
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
}

/**
 * Says what a submission added, weak or classic alike. Without --wait that is the command's
 * output (the submission as JSON, or the summary line) and the command is done: returns false.
 * With --wait the summary goes to stderr, ahead of the progress, and stdout is left to the
 * results: returns true.
 */
function reportSubmission(
  sweep: string,
  submission: { readonly added: number; readonly sizes: readonly { n: number; outcome: string }[] },
  options: { wait?: boolean; json?: boolean },
): boolean {
  const sizes = submission.sizes.map((s) => `n=${s.n} ${s.outcome}`).join(', ');
  const summary = `${sweep}: ${submission.added} jobs added (${sizes})`;
  if (!options.wait) {
    process.stdout.write(options.json ? JSON.stringify(submission) + '\n' : summary + '\n');
    return false;
  }
  process.stderr.write(summary + '\n');
  return true;
}
