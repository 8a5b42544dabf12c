// `wq replan <sweep>`: plan a sweep's unfinished work again for the workers live now.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { onlyPositionals, parseFlags } from '../flags.js';
import type { Command } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { guarded } from './guarded.js';

export const replanCommand: Command = {
  name: 'replan',
  summary: "plan a sweep's unfinished work again for the live workers (units that fit none)",
  help: `usage: wq replan <sweep>

The unfinished n of the sweep are taken out of the queues (units already running finish
first, up to 60 s) and planned again for the workers live now: a unit planned for memory that
no live worker has (see wq status) is split or counted with another algorithm. Results
already stored are kept and not counted again. Starting a worker large enough works too.`,
  run: (args) =>
    guarded('replan', async () => {
      const flags = parseFlags(args, {});
      const [id] = onlyPositionals(flags.positionals, ['sweep']);
      if (!id) throw new InvalidInputError('sweep', '', 'one sweep id (see wq status)');
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
    }),
};
