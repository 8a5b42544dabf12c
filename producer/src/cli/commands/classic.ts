// wq classic <n>: the ordinary n-queens count Q(n) = N(n, n-1).
import { classicCount, MAX_N } from '@weak-queens/shared/kernel';
import { parseBoardSize, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';

export const classic: Command = {
  name: 'classic',
  summary: 'the classic n-queens count Q(n) (OEIS A000170)',
  help: `Usage: wq classic <n>

Prints Q(n), the number of ways to place n non-attacking ordinary queens on an n×n board
(the weak-queens count N(n, n-1)).

Arguments:
  <n>          board size, an integer from 1 to ${MAX_N}

Options:
  -h, --help   this text

Example:
  wq classic 8        prints 92`,

  run(args) {
    const { positionals } = parseCommandArgs(args, {}, [
      { name: 'n', allowed: `an integer from 1 to ${MAX_N}` },
    ]);
    const n = parseBoardSize(positionals[0] ?? '');
    process.stdout.write(`${classicCount(n)}\n`);
    return Promise.resolve(0);
  },
};
