// `wq retry <sweep>`: re-run what a sweep is missing (failed or cancelled n), skipping stored work.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { onlyPositionals, parseFlags } from '../flags.js';
import type { Command } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { guarded } from './guarded.js';

export const retryCommand: Command = {
  name: 'retry',
  summary: 're-run the failed (or cancelled) part of a sweep',
  help: 'usage: wq retry <sweep>',
  run: (args) =>
    guarded('retry', async () => {
      const flags = parseFlags(args, {});
      const [id] = onlyPositionals(flags.positionals, ['sweep']);
      if (!id) throw new InvalidInputError('sweep', '', 'one sweep id (see wq status)');
      const client = await openPipelineClient(compileConfig(), 'retry');
      try {
        const submission = await client.retry(id);
        process.stdout.write(`sweep ${id}: ${submission.added} jobs added again\n`);
        return 0;
      } finally {
        await client.close();
      }
    }),
};
