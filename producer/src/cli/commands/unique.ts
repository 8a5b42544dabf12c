// wq unique <n>: classic solutions counted once per class under rotations and reflections.
import { MAX_N, uniqueCount } from '@weak-queens/shared/kernel';
import { parseBoardSize, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';

export const unique: Command = {
  name: 'unique',
  summary: 'classic solutions distinct under rotations and reflections (OEIS A002562)',
  help: `Usage: wq unique <n>

Prints the number of classic n-queens solutions that remain distinct when boards that are
rotations or reflections of each other count once. It lists every solution, so it takes about
as long as listing them (fine up to n ≈ 14).

Arguments:
  <n>          board size, an integer from 1 to ${MAX_N}

Options:
  -h, --help   this text

Example:
  wq unique 8         prints 12`,

  run(args) {
    const { positionals } = parseCommandArgs(args, {}, [
      { name: 'n', allowed: `an integer from 1 to ${MAX_N}` },
    ]);
    const n = parseBoardSize(positionals[0] ?? '');
    process.stdout.write(`${uniqueCount(n)}\n`);
    return Promise.resolve(0);
  },
};
