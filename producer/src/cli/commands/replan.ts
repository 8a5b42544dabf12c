// `wq replan <sweep>`: plan a sweep's unfinished work again for the workers live now.
import { defineSweepCommand } from './sweep-command.js';

export const replanCommand = defineSweepCommand(
  'replan',
  `The unfinished n of the sweep are taken out of the queues (units already running finish
first, up to 60 s) and planned again for the workers live now: a unit planned for memory that
no live worker has (see wq status) is split or counted with another algorithm. Results
already stored are kept and not counted again. Starting a worker large enough works too.`,
  async (client, id) => {
    const { added, sizes } = await client.replan(id);
    const outcomes = sizes.map((s) => `n=${s.n} ${s.outcome}`).join(', ');
    process.stdout.write(
      `sweep ${id}: planned again for the live workers, ${added} jobs added (${outcomes})\n`,
    );
    return 0;
  },
);
