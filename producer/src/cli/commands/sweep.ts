// `wq sweep <ns> [--wait] [--json] [--verify] [--target-seconds s]`: enqueue one flow per n.
import {
  compileConfig,
  MAX_TARGET_SECONDS,
  parseNSpec,
  parseTargetSeconds,
} from '@weak-queens/shared/contracts';
import { followSweep } from '../follow.js';
import { onlyPositionals, parseFlags } from '../flags.js';
import type { Command } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { guarded } from './guarded.js';

export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'enqueue S(n) for every n of <ns> on the worker pool (Redis from REDIS_URL)',
  help: `usage: wq sweep <ns> [--wait] [--json] [--verify] [--target-seconds s]

  <ns>                "14", "4-12" or "4,6,10-12"
  --wait              follow progress, then print the results (like wq compute)
  --json              one JSON line per n (with --wait) or the submission as JSON
  --verify            count every (n, D) a second time with another algorithm (the cheapest
                      other one that fits WQ_MAX_UNIT_BYTES), on another worker where there
                      is one; S(n) is published only if both agree, else the n fails with
                      both values (see wq status)
  --target-seconds s  split an (n, D) into units of about s single-core seconds, a number
                      > 0 and ≤ ${MAX_TARGET_SECONDS} (default WQ_TARGET_SECONDS or 30)

Values already in the result store are not recomputed; an n already queued is not added again.`,
  run: (args) =>
    guarded('sweep', async () => {
      const flags = parseFlags(args, {
        booleans: ['--wait', '--json', '--verify'],
        values: ['--target-seconds'],
      });
      const [spec] = onlyPositionals(flags.positionals, ['ns']);
      const ns = parseNSpec(spec ?? '');
      const target = flags.values.get('--target-seconds');
      const config = compileConfig(process.env, {
        ...(target ? { targetSeconds: parseTargetSeconds('--target-seconds', target) } : {}),
      });
      const client = await openPipelineClient(config, 'sweep');
      try {
        const submission = await client.submit(ns, { verify: flags.booleans.has('--verify') });
        const json = flags.booleans.has('--json');
        const summary = `sweep ${submission.sweep.id}: ${submission.added} jobs added (${submission.sizes
          .map((s) => `n=${s.n} ${s.outcome}`)
          .join(', ')})`;
        if (!flags.booleans.has('--wait')) {
          process.stdout.write(json ? JSON.stringify(submission) + '\n' : summary + '\n');
          return 0;
        }
        process.stderr.write(summary + '\n');
        await followSweep(client, submission.sweep.id, { json });
        return 0;
      } finally {
        await client.close();
      }
    }),
};
