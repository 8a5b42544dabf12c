// `wq replan <sweep>`: plan a sweep's unfinished work again for the workers live now.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { SWEEP_ID } from './n-spec.js';

export const replanCommand = defineCommand(
  {
    name: 'wq replan',
    summary: "plan a sweep's unfinished work again for the live workers (units that fit none)",
    description: `The unfinished n of the sweep are taken out of the queues (units already running finish
first, up to 60 s) and planned again for the workers live now: a unit planned for memory that
no live worker has (see wq status) is split or counted with another algorithm. Results
already stored are kept and not counted again. Starting a worker large enough works too.`,
    positionals: [SWEEP_ID],
    options: {},
  },
  async ({ positionals }) => {
    const id = positionals[0] ?? '';
    if (!id) throw new InvalidInputError('sweep', id, SWEEP_ID.allowed);
    const client = await openPipelineClient(compileConfig(), 'replan');
    try {
      const submission = await client.replan(id);
      process.stdout.write(
        `sweep ${id}: planned again for the live workers, ${submission.added} jobs added (${submission.sizes
          .map((s) => `n=${s.n} ${s.outcome}`)
          .join(', ')})\n`,
      );
      return 0;
    } finally {
      await client.close();
    }
  },
);
