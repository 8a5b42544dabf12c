// wq boards <n>: streams the classic solutions, stopping at a limit unless asked for all.
import { formatBoard, listBoards } from '@weak-queens/shared/kernel';
import {
  integerRange,
  InvalidInputError,
  parseIntegerOption,
  UsageError,
} from '@weak-queens/shared/process';
import { defineCommand } from '../command.js';
import { LineWriter } from '../line-writer.js';
import { BOARD_SIZE, parseBoardSize } from './board-size.js';

const DEFAULT_LIMIT = 100;
/** Far more boards than n = 32 could list in a lifetime; a bound so the error can say it. */
const MAX_LIMIT = 1_000_000_000;
const FORMATS = ['ascii', 'json'] as const;

export const boards = defineCommand(
  {
    description: 'Lists the classic n-queens solutions in lexicographic order of their columns.',
    positionals: [BOARD_SIZE],
    options: {
      format: {
        type: 'string',
        value: 'f',
        allowed: `one of ${FORMATS.join(', ')}`,
        default: 'ascii',
        description:
          "ascii: one board per block, Q for a queen, blank line between;\njson: one JSON array per line, the queen's column for each row",
      },
      limit: {
        type: 'string',
        value: 'k',
        allowed: integerRange(1, MAX_LIMIT),
        description: `print at most k boards (default ${DEFAULT_LIMIT}); when there are more, a note\non stderr says so and the exit code is still 0`,
      },
      all: {
        type: 'boolean',
        description: 'print every board, however many (not together with --limit)',
      },
    },
    notes: `Examples:
  wq boards 4 --format json     prints [1,3,0,2] and [2,0,3,1]
  wq boards 8 --all`,
  },
  async ({ values, positionals }) => {
    const n = parseBoardSize(positionals[0] ?? '');
    const format = parseFormat(values.format);
    if (values.all && values.limit !== undefined) {
      throw new UsageError('--all and --limit <k> exclude each other: give one of them');
    }
    const limit = values.all
      ? Infinity
      : values.limit === undefined
        ? DEFAULT_LIMIT
        : parseIntegerOption('limit', values.limit, 1, MAX_LIMIT);

    const out = new LineWriter();
    let shown = 0;
    for (const board of listBoards(n)) {
      if (shown === limit) {
        process.stderr.write(
          `wq boards: showed the first ${shown} boards and stopped; more exist ` +
            `(use --all to list every board, or --limit <k> for more)\n`,
        );
        break;
      }
      const text =
        format === 'json' ? JSON.stringify(board) : `${shown > 0 ? '\n' : ''}${formatBoard(board)}`;
      // The reader went away (… | head): stop quietly, that is what it asked for.
      if (!(await out.line(text))) break;
      shown++;
    }
    return 0;
  },
);

function parseFormat(value: string): (typeof FORMATS)[number] {
  if ((FORMATS as readonly string[]).includes(value)) return value as (typeof FORMATS)[number];
  throw new InvalidInputError('format', value, `one of ${FORMATS.join(', ')}`);
}
