// wq classic <n>: the ordinary n-queens count Q(n) = N(n, n-1), from the classic units (the
// ones `wq sweep --problem classic` distributes) spread over this machine's cores.
import { availableParallelism } from 'node:os';
import { ClassicThreads, MAX_N } from '@weak-queens/shared/kernel';
import { defineCommand } from '../command.js';
import { BOARD_SIZE, parseBoardSize } from './board-size.js';

/** Q(n) and the classes on a thread per core (both commands print one of them). */
export async function localClassicTotals(n: number): Promise<{ boards: bigint; classes: bigint }> {
  const threads = new ClassicThreads(Math.max(1, availableParallelism()));
  try {
    return await threads.totals(n);
  } finally {
    await threads.close();
  }
}

export const classic = defineCommand(
  {
    description: `Prints Q(n), the number of ways to place n non-attacking ordinary queens on an n×n board
(the weak-queens count N(n, n-1)). It counts one board of each class of pre-placed outer
rows and columns under the 8 symmetries, on every core of this machine.`,
    positionals: [BOARD_SIZE],
    options: {},
    notes: `Example:
  wq classic 8        prints 92 (n up to ${MAX_N}; wq sweep <ns> --problem classic for big n)`,
  },
  async ({ positionals }) => {
    const { boards } = await localClassicTotals(parseBoardSize(positionals[0] ?? ''));
    process.stdout.write(`${boards}\n`);
    return 0;
  },
);
