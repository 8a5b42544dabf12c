// `wq retry <sweep>`: re-run what a sweep is missing (failed or cancelled n), skipping stored work.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { SWEEP_ID } from './n-spec.js';

export const retryCommand = defineCommand(
  {
    name: 'wq retry',
    summary: 're-run the failed (or cancelled) part of a sweep',
    positionals: [SWEEP_ID],
    options: {},
  },
  async ({ positionals }) => {
    const id = positionals[0] ?? '';
    if (!id) throw new InvalidInputError('sweep', id, SWEEP_ID.allowed);
    const client = await openPipelineClient(compileConfig(), 'retry');
    try {
      const submission = await client.retry(id);
      process.stdout.write(`sweep ${id}: ${submission.added} jobs added again\n`);
      return 0;
    } finally {
      await client.close();
    }
  },
);
