// The configuration schema: WQ_MAX_UNIT_BYTES (the memory cap of one unit).
import { describe, expect, it } from 'vitest';
import { availableParallelism, totalmem } from 'node:os';
import { compileConfig } from '../src/contracts/index.js';

/** A quarter of this machine's memory, shared among its cores: one slot's share. */
const SLOT_SHARE = Math.floor((totalmem() * 0.25) / availableParallelism());

describe('when WQ_MAX_UNIT_BYTES is set', () => {
  it('takes bytes, or a binary K/M/G/T suffix', () => {
    expect(compileConfig({}).maxUnitBytes).toBe(SLOT_SHARE);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '4096' }).maxUnitBytes).toBe(4096);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '512M' }).maxUnitBytes).toBe(536_870_912);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '1.5GiB' }).maxUnitBytes).toBe(1_610_612_736);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '2g' }).maxUnitBytes).toBe(2_147_483_648);
  });

  it('refuses anything else, naming the variable and what is allowed', () => {
    for (const bad of ['lots', '0', '-5', '12X', '1e9']) {
      expect(() => compileConfig({ WQ_MAX_UNIT_BYTES: bad })).toThrow(
        `WQ_MAX_UNIT_BYTES: "${bad}" is not allowed; expected a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M`,
      );
    }
  });
});

describe('when WQ_WORKER_MEMORY is set or not', () => {
  it('defaults to its cores’ share of three quarters of the machine, and takes sizes like 8GiB', () => {
    expect(compileConfig({ WQ_CONCURRENCY: '3' }).workerMemoryBytes).toBe(
      Math.floor((totalmem() * 0.75 * 3) / availableParallelism()),
    );
    expect(compileConfig({ WQ_WORKER_MEMORY: '8GiB' }).workerMemoryBytes).toBe(8 * 2 ** 30);
    expect(() => compileConfig({ WQ_WORKER_MEMORY: 'much' })).toThrow(
      'WQ_WORKER_MEMORY: "much" is not allowed',
    );
  });
});

describe('when a window transfer is capped', () => {
  it('may use the whole worker by default, and no more than WQ_MAX_UNIT_BYTES when it is set', () => {
    const worker = Math.floor((totalmem() * 0.75 * 2) / availableParallelism());
    expect(compileConfig({ WQ_CONCURRENCY: '2' }).maxTransferBytes).toBe(worker);
    expect(compileConfig({ WQ_CONCURRENCY: '2' }).maxUnitBytes).toBe(SLOT_SHARE);
    expect(compileConfig({ WQ_WORKER_MEMORY: '20GiB' }).maxTransferBytes).toBe(20 * 2 ** 30);
    expect(compileConfig({ WQ_MAX_UNIT_BYTES: '1024' }).maxTransferBytes).toBe(1024);
  });
});
