// A worker's log at the default level: one line a minute with the units counted, per (n, D),
// not a line per unit.
import { describe, expect, it } from 'vitest';
import type { Logger } from '@weak-queens/shared/client';
import { CountTally } from '../src/count-tally.js';

/** A logger that keeps its info lines. */
function capturing(): { logger: Logger; lines: { fields: object; msg: string }[] } {
  const lines: { fields: object; msg: string }[] = [];
  const logger = {
    info: (fields: object, msg: string) => lines.push({ fields, msg }),
  } as unknown as Logger;
  return { logger, lines };
}

describe('the count tally', () => {
  it('says nothing while no unit is counted, then one line for all the units since', async () => {
    const { logger, lines } = capturing();
    const tally = new CountTally(logger, 20);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines).toEqual([]);
    tally.note(19, 12, 0.5);
    tally.note(19, 12, 0.25);
    tally.note(19, 13, 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines).toEqual([
      {
        fields: { units: 3, seconds: 1.8, byDepth: { '19:12': 2, '19:13': 1 } },
        msg: 'units counted',
      },
    ]);
    tally.note(17, 9, 2);
    tally.close();
    expect(lines.at(-1)).toEqual({
      fields: { units: 1, seconds: 2, byDepth: { '17:9': 1 } },
      msg: 'units counted',
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(lines).toHaveLength(2);
  });
});
