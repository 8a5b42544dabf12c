// wq unique <n>: classic solutions counted once per class under rotations and reflections.
import { defineCommand } from '../command.js';
import { BOARD_SIZE, parseBoardSize } from './board-size.js';
import { localClassicTotals } from './classic.js';

export const unique = defineCommand(
  {
    description: `Prints the number of classic n-queens solutions that remain distinct when boards that are
rotations or reflections of each other count once. The same enumeration as wq classic: each
class of pre-placed outer rows and columns is counted once, with the boards its symmetries fix.`,
    positionals: [BOARD_SIZE],
    options: {},
    notes: `Example:
  wq unique 8         prints 12`,
  },
  async ({ positionals }) => {
    const { classes } = await localClassicTotals(parseBoardSize(positionals[0] ?? ''));
    process.stdout.write(`${classes}\n`);
    return 0;
  },
);
