// wq classic <n>: the ordinary n-queens count Q(n) = N(n, n-1).
import { classicCount, MAX_N } from '@weak-queens/shared/kernel';
import { defineCommand } from '../command.js';
import { BOARD_SIZE, parseBoardSize } from './board-size.js';

export const classic = defineCommand(
  {
    name: 'wq classic',
    summary: 'the classic n-queens count Q(n) (OEIS A000170)',
    description: `Prints Q(n), the number of ways to place n non-attacking ordinary queens on an n×n board
(the weak-queens count N(n, n-1)).`,
    positionals: [BOARD_SIZE],
    options: {},
    notes: `Example:
  wq classic 8        prints 92 (n up to ${MAX_N})`,
  },
  ({ positionals }) => {
    process.stdout.write(`${classicCount(parseBoardSize(positionals[0] ?? ''))}\n`);
    return Promise.resolve(0);
  },
);
