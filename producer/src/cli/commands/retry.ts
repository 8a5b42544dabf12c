// `wq retry <sweep>`: re-run what a sweep is missing (failed or cancelled n), skipping stored work.
import { defineCommand } from '../command.js';
import { SWEEP_ID, sweepIdOf } from './n-spec.js';

export const retryCommand = defineCommand(
  {
    positionals: [SWEEP_ID],
    options: {},
  },
  async ({ positionals }) => {
    const id = sweepIdOf(positionals);
    const { withPipelineClient } = await import('../pipeline-connection.js');
    return withPipelineClient('retry', async (client) => {
      const { added } = await client.retry(id);
      process.stdout.write(`sweep ${id}: ${added} jobs added again\n`);
      return 0;
    });
  },
);
