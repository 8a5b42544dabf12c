// `wq cancel <sweep>`: remove a sweep's unfinished work from the queues.
import { compileConfig, InvalidInputError } from '@weak-queens/shared/contracts';
import { onlyPositionals, parseFlags } from '../flags.js';
import type { Command } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { guarded } from './guarded.js';

export const cancelCommand: Command = {
  name: 'cancel',
  summary: "remove a sweep's unfinished jobs (stored results are kept)",
  help: `usage: wq cancel <sweep>

Waiting jobs are removed at once; units already running finish (their values are kept) and
their parents are removed after them (up to 60 s).`,
  run: (args) =>
    guarded('cancel', async () => {
      const flags = parseFlags(args, {});
      const [id] = onlyPositionals(flags.positionals, ['sweep']);
      if (!id) throw new InvalidInputError('sweep', '', 'one sweep id (see wq status)');
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
    }),
};
