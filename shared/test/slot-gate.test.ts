// The kernel pool's gate: slots, the memory budget, and whole-machine units that are never overtaken.
import { describe, expect, it } from 'vitest';
import { SlotGate } from '../src/kernel/slot-gate.js';

/** Units asking `gate` for a slot; `admitted()` says, in order, which were let in so far. */
function unitsAt(gate: SlotGate) {
  const admitted: string[] = [];
  const releases = new Map<string, () => void>();
  const enter = (name: string, alone: boolean, bytes = 0): void => {
    void gate.enter(alone, bytes).then((release) => {
      admitted.push(name);
      releases.set(name, release);
    });
  };
  /** The units let in once the gate has answered every request it could. */
  const admittedNow = async (): Promise<string[]> => {
    await new Promise((resolve) => setImmediate(resolve));
    return [...admitted];
  };
  /** Lets `name` leave, then says which units are in. */
  const release = (name: string): Promise<string[]> => {
    releases.get(name)?.();
    return admittedNow();
  };
  return { enter, admitted: admittedNow, release };
}

describe('when units ask the slot gate for a slot', () => {
  it('lets in as many ordinary units as it has slots, the next when one leaves', async () => {
    const units = unitsAt(new SlotGate(2));
    for (const name of ['a', 'b', 'c']) units.enter(name, false);
    expect(await units.admitted()).toEqual(['a', 'b']);
    expect(await units.release('a')).toEqual(['a', 'b', 'c']);
  });

  it('keeps the units beside each other within the memory budget, a smaller one going first', async () => {
    const units = unitsAt(new SlotGate(4, 100));
    units.enter('big', false, 80);
    units.enter('also-big', false, 60);
    units.enter('small', false, 20);
    expect(await units.admitted()).toEqual(['big', 'small']);
    expect(await units.release('big')).toEqual(['big', 'small', 'also-big']);
  });

  it('runs a unit above the whole budget alone rather than never', async () => {
    const units = unitsAt(new SlotGate(2, 100));
    units.enter('huge', false, 500);
    units.enter('tiny', false, 1);
    expect(await units.admitted()).toEqual(['huge']);
  });

  it('lets no later unit overtake a waiting whole-machine unit', async () => {
    const units = unitsAt(new SlotGate(2));
    units.enter('a', false);
    units.enter('team', true);
    units.enter('b', false);
    expect(await units.admitted()).toEqual(['a']);
    expect(await units.release('a')).toEqual(['a', 'team']);
    expect(await units.release('team')).toEqual(['a', 'team', 'b']);
  });

  it('rejects the waiting units on a hand-back', async () => {
    const gate = new SlotGate(1);
    await gate.enter(false);
    const waiting = gate.enter(false);
    gate.denyWaiting(new Error('handed back'));
    await expect(waiting).rejects.toThrow('handed back');
  });
});
