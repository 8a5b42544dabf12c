// `wq cancel <sweep>`: remove a sweep's unfinished work from the queues.
import { defineSweepCommand } from './sweep-command.js';

export const cancelCommand = defineSweepCommand(
  'cancel',
  `Waiting jobs are removed at once; units already running finish (their values are kept) and
their parents are removed after them (up to 60 s). Exit 1 when some n is still running.
Weak and classic sweeps alike.`,
  async (client, id) => {
    await client.ping();
    const { removed, left } = await client.cancel(id);
    process.stdout.write(
      `sweep ${id}: cancelled n = ${removed.join(', ') || 'none'}` +
        (left.length ? `; still running: n = ${left.join(', ')}` : '') +
        '\n',
    );
    return left.length ? 1 : 0;
  },
);
