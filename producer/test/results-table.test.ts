// The one table of results: `wq compute`, `wq results` and `wq sweep --wait` print the same.
import { describe, expect, it } from 'vitest';
import { resultsTable } from '../src/cli/results-table.js';
import { formatTable } from '../src/cli/table.js';
import { N3_TABLE_LINES } from './results-tables.js';

describe('when results are printed as a table', () => {
  it('right-aligns the exact values and shows a missing value as missing, never 0', () => {
    expect(
      resultsTable([
        { n: 3, N: ['27', '2', '0'], S: '29' },
        { n: 4, N: ['256', undefined, '2', '2'] },
      ]),
    ).toBe(
      [
        ...N3_TABLE_LINES,
        '',
        'n = 4',
        '   D  N(4, D)',
        '   0      256',
        '   1  missing',
        '   2        2',
        '   3        2',
        'S(4)  missing',
        '',
      ].join('\n'),
    );
  });

  it('pads columns to their widest cell, left or right', () => {
    expect(
      formatTable(
        [
          ['a', '1', 'x'],
          ['bbb', '22', ''],
        ],
        ['left', 'right'],
      ),
    ).toEqual(['a     1  x', 'bbb  22']);
  });
});
