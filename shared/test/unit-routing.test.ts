import { describe, expect, it } from 'vitest';
import { type WorkerInfo, advertisedMemory, unitRouting } from '../src/client/index.js';
import {
  countQueueClass,
  countQueueFor,
  countQueueNames,
  formatClass,
  largestClassWithin,
  memoryClassOf,
  QUEUE_NAMES,
  queueNamesOf,
} from '../src/contracts/index.js';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

function worker(id: string, slots: number, memoryBytes: number, slotBytes?: number): WorkerInfo {
  return {
    id,
    host: id,
    pid: 1,
    concurrency: slots,
    memoryBytes,
    ...(slotBytes === undefined ? {} : { slotBytes }),
    startedAt: '2026-01-01T00:00:00.000Z',
    active: [],
  };
}

describe('when a unit is given its memory class', () => {
  it('rounds its bytes up to a power of two', () => {
    expect(memoryClassOf(0)).toBe(1);
    expect(memoryClassOf(1)).toBe(1);
    expect(memoryClassOf(3)).toBe(4);
    expect(memoryClassOf(GiB)).toBe(GiB);
    expect(memoryClassOf(GiB + 1)).toBe(2 * GiB);
    expect(memoryClassOf(116_355.828125)).toBe(128 * KiB);
  });

  it('finds the largest class a slot holds (rounding down)', () => {
    expect(largestClassWithin(0)).toBe(0);
    expect(largestClassWithin(3 * GiB)).toBe(2 * GiB);
    expect(largestClassWithin(2 * GiB)).toBe(2 * GiB);
    expect(largestClassWithin(65_536)).toBe(64 * KiB);
  });

  it('names class queues by their size and protocol, and reads the size back', () => {
    expect(formatClass(512 * MiB)).toBe('512MiB');
    expect(formatClass(2 * GiB)).toBe('2GiB');
    expect(formatClass(128 * KiB)).toBe('128KiB');
    expect(formatClass(64)).toBe('64B');
    expect(QUEUE_NAMES).toEqual({ count: 'count.v2', aggregate: 'aggregate.v2' });
    expect(countQueueFor(20 * MiB, 64 * MiB)).toBe('count.v2');
    expect(countQueueFor(64 * MiB, 64 * MiB)).toBe('count.v2');
    expect(countQueueFor(64 * MiB + 1, 64 * MiB)).toBe('count.v2@128MiB');
    expect(countQueueFor(3 * GiB, 64 * MiB)).toBe('count.v2@4GiB');
    expect(countQueueClass('count.v2')).toBe(0);
    expect(countQueueClass('count.v2@4GiB')).toBe(4 * GiB);
    expect(countQueueClass('count.v2@128KiB')).toBe(128 * KiB);
    // Not a power of two, another unit, or another queue: not a count queue.
    expect(countQueueClass('count.v2@3GiB')).toBeUndefined();
    expect(countQueueClass('count.v2@4GB')).toBeUndefined();
    expect(countQueueClass('aggregate.v2')).toBeUndefined();
  });

  it("never reads another protocol's queues as its own", () => {
    // The first protocol's are the plain names every build before protocols used.
    expect(queueNamesOf(1)).toEqual({ count: 'count', aggregate: 'aggregate' });
    expect(countQueueClass('count')).toBeUndefined();
    expect(countQueueClass('count@4GiB')).toBeUndefined();
    expect(countQueueClass('count.v3@4GiB')).toBeUndefined();
    expect(countQueueClass('count@4GiB', 1)).toBe(4 * GiB);
    expect(countQueueClass('count.v2@4GiB', 1)).toBeUndefined();
  });

  it('lists count first, then the class queues from small to large, once each', () => {
    const listed = ['count.v2@4GiB', 'count.v2@512MiB', 'aggregate.v2', 'count.v2@4GiB'];
    expect(countQueueNames([...listed, 'count@1GiB', 'count.v3@1GiB'])).toEqual([
      'count.v2',
      'count.v2@512MiB',
      'count.v2@4GiB',
    ]);
    expect(countQueueNames([])).toEqual(['count.v2']);
    expect(countQueueNames([...listed, 'count@1GiB'], 1)).toEqual(['count', 'count@1GiB']);
  });
});

/** The producer's own slot and worker memory (its configuration). */
const own = (slotMemoryBytes: number, workerMemoryBytes = 64 * GiB) => ({
  slotMemoryBytes,
  workerMemoryBytes,
});

describe('when units are routed for the live workers', () => {
  it('sends every unit to count when all workers are alike (no class queue at all)', () => {
    const live = [worker('a', 2, 6 * GiB), worker('b', 2, 6 * GiB)];
    expect(unitRouting(live, own(8 * GiB))).toEqual({
      baseUnitBytes: 3 * GiB,
      slotMemoryBytes: 3 * GiB,
      largestSlotBytes: 3 * GiB,
      workerMemoryBytes: 6 * GiB,
    });
  });

  it('plans for this configuration when no worker is live, all in count', () => {
    expect(unitRouting([], own(GiB, 3 * GiB))).toEqual({
      baseUnitBytes: GiB,
      slotMemoryBytes: GiB,
      largestSlotBytes: 0,
      workerMemoryBytes: 3 * GiB,
    });
    expect(unitRouting([], own(256 * MiB)).slotMemoryBytes).toBe(256 * MiB);
  });

  it('keeps count to what the smallest slot holds and plans up to the largest class', () => {
    const live = [worker('small', 1, 64 * KiB), worker('large', 1, MiB)];
    expect(unitRouting(live, own(8 * GiB))).toEqual({
      baseUnitBytes: 64 * KiB,
      slotMemoryBytes: MiB,
      largestSlotBytes: MiB,
      workerMemoryBytes: 64 * KiB,
    });
    // A 3 GiB slot consumes classes up to 2 GiB: no unit is planned that only it could hold.
    const odd = [worker('small', 4, 4 * GiB), worker('large', 2, 6 * GiB)];
    expect(unitRouting(odd, own(8 * GiB))).toEqual({
      baseUnitBytes: GiB,
      slotMemoryBytes: 2 * GiB,
      largestSlotBytes: 3 * GiB,
      workerMemoryBytes: 4 * GiB,
    });
  });

  it("never plans above the producer's slot memory", () => {
    const live = [worker('small', 1, 64 * KiB), worker('large', 1, 4 * GiB)];
    expect(unitRouting(live, own(512 * MiB)).slotMemoryBytes).toBe(512 * MiB);
  });

  it("takes a worker's own slot memory when its heartbeat says it", () => {
    expect(advertisedMemory(worker('w', 2, 8 * GiB, 512 * MiB))).toEqual({
      slotMemoryBytes: 512 * MiB,
      workerMemoryBytes: 8 * GiB,
    });
    expect(advertisedMemory(worker('w', 2, 8 * GiB)).slotMemoryBytes).toBe(4 * GiB);
  });
});

describe('when a window transfer may use its whole worker', () => {
  it('plans transfers up to the smallest live worker, to count, slots staying as they were', () => {
    const live = [worker('a', 2, 18 * GiB, 3 * GiB), worker('b', 2, 12 * GiB, 3 * GiB)];
    expect(unitRouting(live, own(3 * GiB))).toEqual({
      baseUnitBytes: 3 * GiB,
      slotMemoryBytes: 3 * GiB,
      largestSlotBytes: 3 * GiB,
      workerMemoryBytes: 12 * GiB,
    });
    expect(advertisedMemory(worker('w', 2, 18 * GiB, 3 * GiB)).workerMemoryBytes).toBe(18 * GiB);
  });

  it("plans for this configuration's worker when none is live, and never above it", () => {
    expect(unitRouting([], own(3 * GiB, 18 * GiB)).workerMemoryBytes).toBe(18 * GiB);
    expect(unitRouting([], own(3 * GiB, 4 * GiB)).workerMemoryBytes).toBe(4 * GiB);
    const live = [worker('a', 2, 18 * GiB, 3 * GiB)];
    expect(unitRouting(live, own(3 * GiB, 4 * GiB)).workerMemoryBytes).toBe(4 * GiB);
  });
});
