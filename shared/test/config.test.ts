// The configuration of memory: WQ_SLOT_MEMORY (one unit on one slot), WQ_WORKER_MEMORY (the
// whole worker, which a window transfer may use), and the deprecated WQ_MAX_UNIT_BYTES.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { availableParallelism, totalmem } from 'node:os';
import { compileConfig } from '../src/contracts/index.js';

/** A quarter of this machine's memory, shared among its cores: one slot's share. */
const SLOT_SHARE = Math.floor((totalmem() * 0.25) / availableParallelism());
/** Three quarters of it, shared among its cores, times a worker's slots. */
const workerShare = (slots: number) =>
  Math.floor((totalmem() * 0.75 * slots) / availableParallelism());

describe('when WQ_SLOT_MEMORY is set', () => {
  it('takes bytes, or a binary K/M/G/T suffix', () => {
    expect(compileConfig({}).slotMemoryBytes).toBe(SLOT_SHARE);
    expect(compileConfig({ WQ_SLOT_MEMORY: '4096' }).slotMemoryBytes).toBe(4096);
    expect(compileConfig({ WQ_SLOT_MEMORY: '512M' }).slotMemoryBytes).toBe(536_870_912);
    const big = { WQ_CONCURRENCY: '1', WQ_WORKER_MEMORY: '1T' };
    expect(compileConfig({ ...big, WQ_SLOT_MEMORY: '1.5GiB' }).slotMemoryBytes).toBe(1_610_612_736);
    expect(compileConfig({ ...big, WQ_SLOT_MEMORY: '2g' }).slotMemoryBytes).toBe(2_147_483_648);
  });

  it('refuses anything else, naming the variable and what is allowed', () => {
    for (const bad of ['lots', '0', '-5', '12X', '1e9']) {
      expect(() => compileConfig({ WQ_SLOT_MEMORY: bad })).toThrow(
        `WQ_SLOT_MEMORY: "${bad}" is not allowed; expected a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M`,
      );
    }
  });

  it("never gives a slot more than its share of the worker's memory", () => {
    const config = compileConfig({
      WQ_CONCURRENCY: '4',
      WQ_WORKER_MEMORY: '8GiB',
      WQ_SLOT_MEMORY: '4GiB',
    });
    expect(config.slotMemoryBytes).toBe(2 * 2 ** 30);
    expect(config.workerMemoryBytes).toBe(8 * 2 ** 30);
  });
});

describe('when WQ_WORKER_MEMORY is set or not', () => {
  it('defaults to its cores’ share of three quarters of the machine, and takes sizes like 8GiB', () => {
    expect(compileConfig({ WQ_CONCURRENCY: '3' }).workerMemoryBytes).toBe(workerShare(3));
    expect(compileConfig({ WQ_WORKER_MEMORY: '8GiB' }).workerMemoryBytes).toBe(8 * 2 ** 30);
    expect(() => compileConfig({ WQ_WORKER_MEMORY: 'much' })).toThrow(
      'WQ_WORKER_MEMORY: "much" is not allowed',
    );
  });

  it('is what a window transfer may use, whatever the slot memory', () => {
    expect(compileConfig({ WQ_CONCURRENCY: '2' }).workerMemoryBytes).toBe(workerShare(2));
    expect(compileConfig({ WQ_CONCURRENCY: '2' }).slotMemoryBytes).toBe(SLOT_SHARE);
    expect(compileConfig({ WQ_WORKER_MEMORY: '20GiB' }).workerMemoryBytes).toBe(20 * 2 ** 30);
    expect(compileConfig({ WQ_CONCURRENCY: '2', WQ_SLOT_MEMORY: '1024' }).workerMemoryBytes).toBe(
      workerShare(2),
    );
  });
});

describe('when the deprecated WQ_MAX_UNIT_BYTES is set', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the slot memory and caps a window transfer too, as it did, and says so once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const config = compileConfig({ WQ_CONCURRENCY: '2', WQ_MAX_UNIT_BYTES: '1024' });
    expect(config.slotMemoryBytes).toBe(1024);
    expect(config.workerMemoryBytes).toBe(1024);
    compileConfig({ WQ_MAX_UNIT_BYTES: '2048' });
    expect(warn.mock.calls).toEqual([
      [
        'WQ_MAX_UNIT_BYTES is deprecated: set WQ_SLOT_MEMORY (the memory of one unit on one slot) and, to cap a window transfer too as WQ_MAX_UNIT_BYTES did, WQ_WORKER_MEMORY',
        { type: 'DeprecationWarning', code: 'WQ_DEP_WQ_MAX_UNIT_BYTES' },
      ],
    ]);
  });

  it('gives way to WQ_SLOT_MEMORY', () => {
    const config = compileConfig({
      WQ_CONCURRENCY: '2',
      WQ_SLOT_MEMORY: '4096',
      WQ_MAX_UNIT_BYTES: '1024',
    });
    expect(config.slotMemoryBytes).toBe(4096);
    expect(config.workerMemoryBytes).toBe(workerShare(2));
  });

  it('refuses a bad value, naming it', () => {
    expect(() => compileConfig({ WQ_MAX_UNIT_BYTES: 'lots' })).toThrow(
      'WQ_MAX_UNIT_BYTES: "lots" is not allowed',
    );
  });
});
