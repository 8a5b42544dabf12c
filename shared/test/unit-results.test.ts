// Unit results read back from Redis: records with the timeline's sweep, start time and slot, and
// older records without them, both parse; anything else in those fields is refused.
import { describe, expect, it } from 'vitest';
import { InvalidInputError, parseUnitResult } from '../src/contracts/index.js';

const OLD = {
  kind: 'unit',
  n: 9,
  depth: 4,
  unit: '3.1',
  value: '1234',
  algorithm: 'dfs',
  seconds: 0.5,
  worker: 'host-1-w1',
  estimateSeconds: 0.4,
};

describe('when a unit result is read back', () => {
  it('keeps its sweep, start time and slot', () => {
    const stored = { ...OLD, sweepId: 's-lx3k2a', startedAt: 1_700_000_000_123, slot: 2 };
    expect(parseUnitResult(stored)).toEqual(stored);
  });

  it('reads an older record without them', () => {
    const parsed = parseUnitResult(OLD);
    expect(parsed).toEqual(OLD);
    expect(['sweepId', 'startedAt', 'slot'].filter((f) => f in parsed)).toEqual([]);
  });

  it('refuses a start time or slot that is not an integer ≥ 0, or a malformed sweep id', () => {
    const bad = [
      { startedAt: 1.5 },
      { startedAt: '1' },
      { slot: -1 },
      { slot: null },
      { sweepId: 'a b' },
      { sweepId: 7 },
    ];
    for (const fields of bad) {
      expect(() => parseUnitResult({ ...OLD, ...fields })).toThrow(InvalidInputError);
    }
    expect(() => parseUnitResult({ ...OLD, slot: -1 })).toThrow(/unit result\.slot/);
  });
});
