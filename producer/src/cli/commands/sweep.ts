// `wq sweep <ns> [--wait] [--json] [--verify] [--target-seconds s]`: enqueue one flow per n.
import {
  compileConfig,
  MAX_TARGET_SECONDS,
  parseNSpec,
  parseTargetSeconds,
} from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { N_SPEC } from './n-spec.js';

export const sweepCommand = defineCommand(
  {
    name: 'wq sweep',
    summary: 'enqueue S(n) for every n of <ns> on the worker pool (Redis from REDIS_URL)',
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
      'target-seconds': {
        type: 'string',
        value: 's',
        allowed: `a number of seconds > 0 and ≤ ${MAX_TARGET_SECONDS}`,
        description: `split an (n, D) into units of about s single-core seconds, a number
> 0 and ≤ ${MAX_TARGET_SECONDS} (default WQ_TARGET_SECONDS or 30)`,
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
    const client = await openPipelineClient(config, 'sweep');
    try {
      const submission = await client.submit(ns, { verify: values.verify });
      const summary = `sweep ${submission.sweep.id}: ${submission.added} jobs added (${submission.sizes
        .map((s) => `n=${s.n} ${s.outcome}`)
        .join(', ')})`;
      if (!values.wait) {
        process.stdout.write(values.json ? JSON.stringify(submission) + '\n' : summary + '\n');
        return 0;
      }
      process.stderr.write(summary + '\n');
      const { followSweep } = await import('../follow.js');
      await followSweep(client, submission.sweep.id, { json: values.json });
      return 0;
    } finally {
      await client.close();
    }
  },
);
