// `wq cancel <sweep>`: remove a sweep's unfinished work from the queues.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { SWEEP_ID } from './n-spec.js';

export const cancelCommand = defineCommand(
  {
    name: 'wq cancel',
    summary: "remove a sweep's unfinished jobs (stored results are kept)",
    description: `Waiting jobs are removed at once; units already running finish (their values are kept) and
their parents are removed after them (up to 60 s). Exit 1 when some n is still running.`,
    positionals: [SWEEP_ID],
    options: {},
  },
  async ({ positionals }) => {
    const id = positionals[0] ?? '';
    if (!id) throw new InvalidInputError('sweep', id, SWEEP_ID.allowed);
    const client = await openPipelineClient(compileConfig(), 'cancel');
    try {
      await client.ping();
      const { removed, left } = await client.cancel(id);
      process.stdout.write(
        `sweep ${id}: cancelled n = ${removed.join(', ') || 'none'}` +
          (left.length ? `; still running: n = ${left.join(', ')}` : '') +
          '\n',
      );
      return left.length ? 1 : 0;
    } finally {
      await client.close();
    }
  },
);
