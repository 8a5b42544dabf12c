// Unit results read back from Redis: records with the timeline's start time and slot, and older
// records without them, both parse; anything else in those fields is refused.
import { describe, expect, it } from 'vitest';
import { InvalidInputError, parseUnitResult } from '../src/index.js';

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
  it('keeps its start time and slot', () => {
    const stored = { ...OLD, startedAt: 1_700_000_000_123, slot: 2 };
    expect(parseUnitResult(stored)).toEqual(stored);
  });

  it('reads an older record without them', () => {
    const parsed = parseUnitResult(OLD);
    expect(parsed).toEqual(OLD);
    expect('startedAt' in parsed || 'slot' in parsed).toBe(false);
  });

  it('refuses a start time or slot that is not an integer ≥ 0', () => {
    for (const bad of [{ startedAt: 1.5 }, { startedAt: '1' }, { slot: -1 }, { slot: null }]) {
      expect(() => parseUnitResult({ ...OLD, ...bad })).toThrow(InvalidInputError);
    }
    expect(() => parseUnitResult({ ...OLD, slot: -1 })).toThrow(/unit result\.slot/);
  });
});
