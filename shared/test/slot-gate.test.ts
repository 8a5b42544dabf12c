// The kernel pool's gate: slots, the memory budget, and whole-machine units that are never overtaken.
import { describe, expect, it } from 'vitest';
import { SlotGate } from '../src/kernel/slot-gate.js';

/** Enters the gate and records, in order, which units were let in. */
function enterer(gate: SlotGate, admitted: string[]) {
  const releases = new Map<string, () => void>();
  const enter = (name: string, alone: boolean, bytes = 0): void => {
    void gate.enter(alone, bytes).then((release) => {
      admitted.push(name);
      releases.set(name, release);
    });
  };
  const release = async (name: string): Promise<void> => {
    releases.get(name)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { enter, release };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('when units ask the slot gate for a slot', () => {
  it('lets in as many ordinary units as it has slots, the next when one leaves', async () => {
    const admitted: string[] = [];
    const { enter, release } = enterer(new SlotGate(2), admitted);
    for (const name of ['a', 'b', 'c']) enter(name, false);
    await settle();
    expect(admitted).toEqual(['a', 'b']);
    await release('a');
    expect(admitted).toEqual(['a', 'b', 'c']);
  });

  it('keeps the units beside each other within the memory budget, a smaller one going first', async () => {
    const admitted: string[] = [];
    const { enter, release } = enterer(new SlotGate(4, 100), admitted);
    enter('big', false, 80);
    enter('also-big', false, 60);
    enter('small', false, 20);
    await settle();
    expect(admitted).toEqual(['big', 'small']);
    await release('big');
    expect(admitted).toEqual(['big', 'small', 'also-big']);
  });

  it('runs a unit above the whole budget alone rather than never', async () => {
    const admitted: string[] = [];
    const { enter } = enterer(new SlotGate(2, 100), admitted);
    enter('huge', false, 500);
    enter('tiny', false, 1);
    await settle();
    expect(admitted).toEqual(['huge']);
  });

  it('lets no later unit overtake a waiting whole-machine unit', async () => {
    const admitted: string[] = [];
    const { enter, release } = enterer(new SlotGate(2), admitted);
    enter('a', false);
    enter('team', true);
    enter('b', false);
    await settle();
    expect(admitted).toEqual(['a']);
    await release('a');
    expect(admitted).toEqual(['a', 'team']);
    await release('team');
    expect(admitted).toEqual(['a', 'team', 'b']);
  });

  it('rejects the waiting units on a hand-back', async () => {
    const gate = new SlotGate(1);
    await gate.enter(false);
    const waiting = gate.enter(false);
    gate.denyWaiting(new Error('handed back'));
    await expect(waiting).rejects.toThrow('handed back');
  });
});
