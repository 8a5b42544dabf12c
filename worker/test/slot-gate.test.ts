// The slot gate: a worker that consumes several count queues (memory classes) fetches up to its
// slots from each, and the gate keeps the units running at once to its slots.
import { describe, expect, it } from 'vitest';
import { SlotGate } from '../src/slot-gate.js';

async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('when more units arrive than the worker has slots', () => {
  it('runs as many as it has slots and lets the next one in when one ends', async () => {
    const gate = new SlotGate(2);
    const entered: number[] = [];
    const releases: (() => void)[] = [];
    for (const unit of [1, 2, 3]) {
      void gate.enter(false).then((release) => {
        entered.push(unit);
        releases.push(release);
      });
    }
    await settled();
    expect(entered).toEqual([1, 2]);
    releases[0]?.();
    await settled();
    expect(entered).toEqual([1, 2, 3]);
  });

  it('still runs a whole-machine unit alone, after the running ones', async () => {
    const gate = new SlotGate(2);
    const entered: string[] = [];
    const releases: (() => void)[] = [];
    for (const [name, alone] of [
      ['a', false],
      ['team', true],
      ['b', false],
    ] as const) {
      void gate.enter(alone).then((release) => {
        entered.push(name);
        releases.push(release);
      });
    }
    await settled();
    expect(entered).toEqual(['a']);
    releases[0]?.();
    await settled();
    expect(entered).toEqual(['a', 'team']);
    releases[1]?.();
    await settled();
    expect(entered).toEqual(['a', 'team', 'b']);
  });
});
