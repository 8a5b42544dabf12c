// The aggregate processor on its own: real BullMQ jobs in a private Redis, the parts already in
// the result store (as when a sweep is planned over stored results), and the sums checked
// against the published references.
import { UnrecoverableError } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@weak-queens/shared/client';
import {
  type DepthResult,
  JOB_NAMES,
  KNOWN_S,
  knownValue,
  planIdOf,
  QUEUE_NAMES,
} from '@weak-queens/shared/contracts';
import { createAggregateProcessor } from '../dist/aggregate-processor.js';
import { processorFixture } from './processor-fixture.js';

describe('when the aggregate processor sums parts', () => {
  const fixture = processorFixture(QUEUE_NAMES.aggregate, '{aggregate-processor}');
  let processor: ReturnType<typeof createAggregateProcessor>;

  beforeAll(() => {
    processor = createAggregateProcessor({
      store: fixture.store,
      logger: createLogger({ level: 'silent', pretty: false }),
    });
  });

  const depth = (n: number, d: number, value: string): DepthResult => ({
    kind: 'depth',
    n,
    depth: d,
    value,
    algorithm: 'dfs',
    units: 1,
    seconds: 0.5,
    workers: ['w-test'],
  });

  it("sums N(4, ·) = 256, 16, 2, 2 to S(4) = 276 (PROBLEM.md's worked example)", async () => {
    const published = [0, 1, 2, 3].map((d) => knownValue(4, d)?.value ?? '');
    expect(published).toEqual(['256', '16', '2', '2']);
    for (const [d, value] of published.entries()) await fixture.store.putDepth(depth(4, d, value));
    const job = await fixture.queue.add(JOB_NAMES.sum, { sweepId: 's-test', n: 4 });
    expect(await processor(job)).toEqual({ kind: 'sum', n: 4, S: KNOWN_S[3], N: published });
    const record = await fixture.store.record(4);
    expect([record?.S, record?.sweepId, record?.cpuSeconds]).toEqual(['276', 's-test', 2]);
  });

  it('does not publish an S(n) whose N(n, D) contradicts a published value', async () => {
    for (const [d, value] of ['3125', '184', '18', '10', '11'].entries()) {
      await fixture.store.putDepth(depth(5, d, value));
    }
    const job = await fixture.queue.add(JOB_NAMES.sum, { sweepId: 's-test', n: 5 });
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(refused).rejects.toThrow(
      'S(5) not published: N(5, 4): dfs counted 11, the reference OEIS A000170 is 10',
    );
    expect(await fixture.store.record(5)).toBeUndefined();
    expect((await fixture.store.mismatch(5))?.depths).toEqual([
      {
        depth: 4,
        value: '11',
        algorithm: 'dfs',
        workers: ['w-test'],
        expected: '10',
        expectedFrom: 'OEIS A000170',
      },
    ]);
  });

  it("sums an N(n, D)'s units from the store, each once", async () => {
    const header = { n: 6, depth: 2, role: 'primary', algorithm: 'dfs', units: 2 } as const;
    const planId = planIdOf(header, ['0', '1']);
    const planned = { weight: 2, modelSeconds: 0.1, boundSeconds: 60 } as const;
    await fixture.store.putPlan(
      header,
      planId,
      new Map([
        ['0', planned],
        ['1', planned],
      ]),
    );
    for (const [key, value, worker] of [
      ['0', '70', 'w-a'],
      ['1', '29', 'w-b'],
    ] as const) {
      await fixture.store.putUnit({
        kind: 'unit',
        n: 6,
        depth: 2,
        unit: key,
        value,
        algorithm: 'dfs',
        seconds: 0.25,
        worker,
      });
    }
    const depthJob = (unitKeys: string[]) =>
      fixture.queue.add(JOB_NAMES.depth, {
        sweepId: 's-test',
        n: 6,
        depth: 2,
        algorithm: 'dfs',
        unitKeys,
        planId,
      });
    const job = await depthJob(['0', '1']);
    const summed: DepthResult = {
      kind: 'depth',
      n: 6,
      depth: 2,
      value: '99',
      algorithm: 'dfs',
      units: 2,
      seconds: 0.5,
      workers: ['w-a', 'w-b'],
    };
    expect(await processor(job)).toEqual(summed);
    expect((await fixture.store.depths(6)).get(2)).toEqual(summed);

    const other = await depthJob(['0', '2']);
    await expect(processor(other)).rejects.toThrow(
      `children: the units listed for N(6, 2) are not those of plan ${planId}`,
    );
  });

  it('refuses a job that is neither a depth nor a sum', async () => {
    const job = await fixture.queue.add('average', { sweepId: 's-test', n: 4 });
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(refused).rejects.toThrow(
      'job name: "average" is not allowed; expected "depth" or "sum"',
    );
  });
});
