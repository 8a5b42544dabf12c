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

/**
 * A gate of `slots` (and a memory budget), the units entering in order (name, whole machine,
 * bytes), who is in once the gate has answered, then who is in after each release.
 */
interface GateCase {
  readonly title: string;
  readonly slots: number;
  readonly budget?: number;
  readonly enter: readonly (readonly [string, boolean, number?])[];
  readonly admitted: readonly string[];
  readonly releases: readonly (readonly [string, readonly string[]])[];
}

const CASES: readonly GateCase[] = [
  {
    title: 'lets in as many ordinary units as it has slots, the next when one leaves',
    slots: 2,
    enter: [
      ['a', false],
      ['b', false],
      ['c', false],
    ],
    admitted: ['a', 'b'],
    releases: [['a', ['a', 'b', 'c']]],
  },
  {
    title: 'keeps the units beside each other within the memory budget, a smaller one going first',
    slots: 4,
    budget: 100,
    enter: [
      ['big', false, 80],
      ['also-big', false, 60],
      ['small', false, 20],
    ],
    admitted: ['big', 'small'],
    releases: [['big', ['big', 'small', 'also-big']]],
  },
  {
    title: 'runs a unit above the whole budget alone rather than never',
    slots: 2,
    budget: 100,
    enter: [
      ['huge', false, 500],
      ['tiny', false, 1],
    ],
    admitted: ['huge'],
    releases: [],
  },
  {
    title: 'lets no later unit overtake a waiting whole-machine unit',
    slots: 2,
    enter: [
      ['a', false],
      ['team', true],
      ['b', false],
    ],
    admitted: ['a'],
    releases: [
      ['a', ['a', 'team']],
      ['team', ['a', 'team', 'b']],
    ],
  },
];

describe('when units ask the slot gate for a slot', () => {
  it.each(CASES)('$title', async ({ slots, budget, enter, admitted, releases }) => {
    const units = unitsAt(new SlotGate(slots, budget));
    for (const [name, alone, bytes] of enter) units.enter(name, alone, bytes);
    expect(await units.admitted()).toEqual(admitted);
    for (const [name, inNow] of releases) expect(await units.release(name)).toEqual(inNow);
  });

  it('rejects the waiting units on a hand-back', async () => {
    const gate = new SlotGate(1);
    await gate.enter(false);
    const waiting = gate.enter(false);
    gate.denyWaiting(new Error('handed back'));
    await expect(waiting).rejects.toThrow('handed back');
  });
});
