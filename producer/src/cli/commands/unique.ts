// wq unique <n>: classic solutions counted once per class under rotations and reflections.
import { uniqueCount } from '@weak-queens/shared/kernel';
import { defineCommand } from '../command.js';
import { BOARD_SIZE, parseBoardSize } from './board-size.js';

export const unique = defineCommand(
  {
    name: 'wq unique',
    summary: 'classic solutions distinct under rotations and reflections (OEIS A002562)',
    description: `Prints the number of classic n-queens solutions that remain distinct when boards that are
rotations or reflections of each other count once. It lists every solution, so it takes about
as long as listing them (fine up to n ≈ 14).`,
    positionals: [BOARD_SIZE],
    options: {},
    notes: `Example:
  wq unique 8         prints 12`,
  },
  ({ positionals }) => {
    process.stdout.write(`${uniqueCount(parseBoardSize(positionals[0] ?? ''))}\n`);
    return Promise.resolve(0);
  },
);
