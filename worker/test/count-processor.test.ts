// The count processor on its own: real BullMQ jobs in a private Redis, a real kernel pool, and
// expected counts from the published references (never from the kernel it runs).
// The pool runs built threads, so the processor comes from the build (the test task builds first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Algorithm, KernelPool } from '@weak-queens/shared/kernel';
// The BullMQ the worker throws with (the client's bundled one), not another copy.
import { bullmq, createLogger } from '@weak-queens/shared/client';
import {
  JOB_NAMES,
  knownValue,
  planIdOf,
  QUEUE_NAMES,
  type UnitResult,
  wholeDepth,
} from '@weak-queens/shared/contracts';
import { createCountProcessor } from '../dist/count-processor.js';
import { processorFixture } from './processor-fixture.js';

describe('when the count processor takes a unit job', () => {
  const fixture = processorFixture(QUEUE_NAMES.count, '{count-processor}');
  let pool: KernelPool;
  let processor: ReturnType<typeof createCountProcessor>;

  beforeAll(() => {
    pool = new KernelPool(1);
    processor = createCountProcessor({
      store: fixture.store,
      pool,
      workerId: 'w-test',
      logger: createLogger({ level: 'silent', pretty: false }),
      progressIntervalMs: 0,
      memory: { slotMemoryBytes: 1024 ** 3, workerMemoryBytes: 1024 ** 3 },
    });
  });

  afterAll(async () => {
    await pool?.close();
  });

  /** Records the one-unit plan of N(n, D) and queues its job; returns the job. */
  async function wholeUnitJob(n: number, depth: number, algorithm: Algorithm, recorded = true) {
    const header = { n, depth, role: 'primary', algorithm, units: 1 } as const;
    const planId = planIdOf(header, ['*']);
    if (recorded) {
      await fixture.store.putPlan(
        header,
        planId,
        new Map([['*', { weight: 1, modelSeconds: 0.5, boundSeconds: 60 }]]),
      );
    }
    const data = { sweepId: 's-test', n, depth, algorithm, prefix: [], weight: 1, planId };
    const job = await fixture.queue.add(
      JOB_NAMES.unit,
      { ...data, estimateSeconds: 0.25, whole: true },
      { jobId: `n${n}-d${depth}-${algorithm}-${recorded ? 'planned' : 'unplanned'}` },
    );
    return { job, planId };
  }

  it('counts N(8, 7) = 92 (OEIS A000170), stores it as the unit and as N(8, 7)', async () => {
    const { job } = await wholeUnitJob(8, 7, 'dfs');
    const result = (await processor(job)) as UnitResult;
    expect(knownValue(8, 7)).toEqual({ value: '92', source: 'OEIS A000170' });
    // Measured times vary; everything else is exact.
    expect({ ...result, seconds: 0, startedAt: 0 }).toEqual({
      kind: 'unit',
      n: 8,
      depth: 7,
      unit: '*',
      value: '92',
      algorithm: 'dfs',
      seconds: 0,
      worker: 'w-test',
      sweepId: 's-test',
      startedAt: 0,
      slot: 0,
      estimateSeconds: 0.25,
      modelSeconds: 0.5,
      weight: 1,
      planId: (job.data as { planId: string }).planId,
    });
    expect(await fixture.store.unit(8, 7, '*')).toEqual(result);
    expect((await fixture.store.depths(8)).get(7)?.value).toBe('92');
    expect(await job.isCompleted()).toBe(false);
  });

  it("counts N(4, 1) = 16 by window transfer (PROBLEM.md's worked example)", async () => {
    const { job } = await wholeUnitJob(4, 1, 'window-transfer');
    const result = (await processor(job)) as UnitResult;
    expect([result.value, result.algorithm]).toEqual([knownValue(4, 1)?.value, 'window-transfer']);
    expect(result.value).toBe('16');
  });

  it('guards with the memory it advertises: a transfer may use the worker memory, no more', async () => {
    // N(5, 4) by the transfer needs about 740 bytes, N(6, 5) about 2.5 KB.
    const small = createCountProcessor({
      store: fixture.store,
      pool,
      workerId: 'w-small',
      logger: createLogger({ level: 'silent', pretty: false }),
      progressIntervalMs: 0,
      memory: { slotMemoryBytes: 100, workerMemoryBytes: 1024 },
    });
    const fits = (await small((await wholeUnitJob(5, 4, 'window-transfer')).job)) as UnitResult;
    expect([fits.value, fits.algorithm]).toEqual([knownValue(5, 4)?.value, 'window-transfer']);
    const above = (await small((await wholeUnitJob(6, 5, 'window-transfer')).job)) as UnitResult;
    expect([above.value, above.algorithm]).toEqual([knownValue(6, 5)?.value, 'dfs']);
    expect([fits.value, above.value]).toEqual(['10', '4']);
  });

  it('returns the stored unit when the job comes again, without counting it twice', async () => {
    const { job } = await wholeUnitJob(8, 7, 'dfs');
    const stored = await fixture.store.unit(8, 7, '*');
    expect(stored?.value).toBe('92');
    expect(await processor(job)).toEqual(stored);
  });

  it('refuses a unit of a plan that was never recorded, for good', async () => {
    const { job, planId } = await wholeUnitJob(6, 3, 'dfs', false);
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(bullmq.UnrecoverableError);
    await expect(refused).rejects.toThrow(
      `unit job: unit * of N(6, 3) is not in recorded plan ${planId}; only planned units are counted`,
    );
    expect(await fixture.store.unit(6, 3, '*')).toBeUndefined();
  });

  it('fails a job whose data is not a unit, for good, naming the field', async () => {
    const job = await fixture.queue.add(JOB_NAMES.unit, { sweepId: 's-test', n: 40, depth: 3 });
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(bullmq.UnrecoverableError);
    await expect(refused).rejects.toThrow(
      'unit job.n: 40 is not allowed; expected an integer from 1 to 32',
    );
  });
});

describe('when a unit is stored with its N(n, D) in one step', () => {
  const fixture = processorFixture(QUEUE_NAMES.count, '{put-unit}');
  const counted = (value: string, worker: string): UnitResult => ({
    kind: 'unit',
    n: 9,
    depth: 8,
    unit: '*',
    value,
    algorithm: 'dfs',
    seconds: 0.01,
    worker,
    sweepId: 's-test',
    startedAt: 0,
    slot: 0,
    estimateSeconds: 0.01,
    weight: 1,
    planId: 'abcdef012345',
  });

  it('writes both when new and when counted again alike, neither over another value', async () => {
    const { store } = fixture;
    const first = counted('352', 'w-one');
    expect(await store.putUnit(first, wholeDepth(first))).toBe('stored');
    expect((await store.depths(9)).get(8)?.value).toBe('352');
    await store.forgetDepths(9, [{ depth: 8, role: 'primary' }]);
    // The same value again (a job delivered twice): the unit stays, N(n, D) is written again.
    const again = counted('352', 'w-two');
    expect(await store.putUnit(again, wholeDepth(again))).toBe('duplicate');
    expect((await store.depths(9)).get(8)?.value).toBe('352');
    // Another value: refused, kept aside, and neither the unit nor N(n, D) changes.
    const wrong = counted('353', 'w-three');
    expect(await store.putUnit(wrong, wholeDepth(wrong))).toBe('conflict');
    expect((await store.unit(9, 8, '*'))?.value).toBe('352');
    expect((await store.depths(9)).get(8)?.value).toBe('352');
    expect((await store.disagreements()).map((d) => [d.stored, d.counted])).toEqual([
      ['352', '353'],
    ]);
    expect((await store.counters()).duplicates).toBe(1);
  });
});
