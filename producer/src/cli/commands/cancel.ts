// `wq cancel <sweep>`: remove a sweep's unfinished work from the queues.
import { defineCommand } from '../command.js';
import { SWEEP_ID, sweepIdOf } from './n-spec.js';

export const cancelCommand = defineCommand(
  {
    description: `Waiting jobs are removed at once; units already running finish (their values are kept) and
their parents are removed after them (up to 60 s). Exit 1 when some n is still running.
Weak and classic sweeps alike.`,
    positionals: [SWEEP_ID],
    options: {},
  },
  async ({ positionals }) => {
    const id = sweepIdOf(positionals);
    const { withPipelineClient } = await import('../pipeline-connection.js');
    return withPipelineClient('cancel', async (client) => {
      await client.ping();
      const { removed, left } = await client.cancel(id);
      process.stdout.write(
        `sweep ${id}: cancelled n = ${removed.join(', ') || 'none'}` +
          (left.length ? `; still running: n = ${left.join(', ')}` : '') +
          '\n',
      );
      return left.length ? 1 : 0;
    });
  },
);
