// The aggregate processor on its own: real BullMQ jobs in a private Redis, the parts already in
// the result store (as when a sweep is planned over stored results), and the sums checked
// against the published references.
import { beforeAll, describe, expect, it } from 'vitest';
// The BullMQ the worker throws with (the client's bundled one), not another copy.
import { bullmq, createLogger } from '@weak-queens/shared/client';
import {
  type DepthResult,
  depthJobId,
  JOB_NAMES,
  KNOWN_S,
  knownValue,
  planIdOf,
  QUEUE_NAMES,
  sumJobId,
  unitKey,
  wholeDepth,
} from '@weak-queens/shared/contracts';
import { topUnits } from '@weak-queens/shared/kernel';
import { createAggregateProcessor } from '../dist/aggregate-processor.js';
import { processorFixture } from './processor-fixture.js';

const PREFIX = '{aggregate-processor}';

describe('when the aggregate processor sums parts', () => {
  const fixture = processorFixture(QUEUE_NAMES.aggregate, PREFIX);
  let processor: ReturnType<typeof createAggregateProcessor>;

  beforeAll(() => {
    processor = createAggregateProcessor({
      store: fixture.store,
      logger: createLogger({ level: 'silent', pretty: false }),
      prefix: PREFIX,
    });
  });

  /**
   * What a worker leaves in the store for an unsplit (n, D): its recorded plan of one unit, the
   * unit, and N(n, D) naming the plan.
   */
  const storeWhole = async (n: number, d: number, value: string): Promise<DepthResult> => {
    const header = { n, depth: d, role: 'primary', algorithm: 'dfs', units: 1 } as const;
    const planId = planIdOf(header, ['*']);
    await fixture.store.putPlan(
      header,
      planId,
      new Map([['*', { weight: 1, modelSeconds: 0.1, boundSeconds: 60 }]]),
    );
    const unit = {
      kind: 'unit' as const,
      n,
      depth: d,
      unit: '*',
      value,
      algorithm: 'dfs' as const,
      seconds: 0.5,
      worker: 'w-test',
      weight: 1 as const,
      planId,
    };
    await fixture.store.putUnit(unit);
    const depth = { ...wholeDepth(unit), planId };
    await fixture.store.putDepth(depth);
    return depth;
  };

  it("sums N(4, ·) = 256, 16, 2, 2 to S(4) = 276 (PROBLEM.md's worked example)", async () => {
    const published = [0, 1, 2, 3].map((d) => knownValue(4, d)?.value ?? '');
    expect(published).toEqual(['256', '16', '2', '2']);
    for (const [d, value] of published.entries()) await storeWhole(4, d, value);
    const job = await sumJob(4);
    expect(await processor(job)).toEqual({ kind: 'sum', n: 4, S: KNOWN_S[3], N: published });
    const record = await fixture.store.record(4);
    expect([record?.S, record?.sweepId, record?.cpuSeconds]).toEqual(['276', 's-test', 2]);
  });

  it('does not publish an S(n) whose N(n, D) contradicts a published value', async () => {
    for (const [d, value] of ['3125', '184', '18', '10', '11'].entries()) {
      await storeWhole(5, d, value);
    }
    const job = await sumJob(5);
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(bullmq.UnrecoverableError);
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

  it('does not publish an S(n) whose N(n, 1) contradicts its recurrence', async () => {
    for (const [d, value] of ['46656', '1000', '800', '300', '60', '4'].entries()) {
      await storeWhole(6, d, value);
    }
    await expect(processor(await sumJob(6))).rejects.toThrow(
      'S(6) not published: N(6, 1): dfs counted 1000, the reference N(n, 1) recurrence is 2642',
    );
  });

  it("sums an N(n, D)'s units from the store, each once", async () => {
    const [a, b] = topUnits(6, 2);
    if (!a || !b) throw new Error('N(6, 2) has fewer than two top units');
    const keys = [unitKey(a.prefix, a.middle), unitKey(b.prefix, b.middle)];
    const header = { n: 6, depth: 2, role: 'primary', algorithm: 'dfs', units: 2 } as const;
    const planId = planIdOf(header, keys);
    await fixture.store.putPlan(
      header,
      planId,
      new Map(
        [a, b].map((u, i) => [
          keys[i] ?? '',
          { weight: u.weight, modelSeconds: 0.1, boundSeconds: 60 },
        ]),
      ),
    );
    for (const [i, value, worker] of [
      [0, '70', 'w-a'],
      [1, '29', 'w-b'],
    ] as const) {
      await fixture.store.putUnit({
        kind: 'unit',
        n: 6,
        depth: 2,
        unit: keys[i] ?? '',
        value,
        algorithm: 'dfs',
        seconds: 0.25,
        worker,
        weight: [a, b][i]?.weight,
        planId,
      });
    }
    const depthJob = (unitKeys: string[]) =>
      fixture.queue.add(
        JOB_NAMES.depth,
        { sweepId: 's-test', n: 6, depth: 2, algorithm: 'dfs', unitKeys, planId },
        { jobId: depthJobId(6, 2) },
      );
    const job = await depthJob(keys);
    const summed: DepthResult = {
      kind: 'depth',
      n: 6,
      depth: 2,
      value: '99',
      algorithm: 'dfs',
      units: 2,
      seconds: 0.5,
      workers: ['w-a', 'w-b'],
      planId,
    };
    expect(await processor(job)).toEqual(summed);
    expect((await fixture.store.depths(6)).get(2)).toEqual(summed);
    await job.remove();

    const other = await depthJob([keys[0] ?? '', '0.2']);
    await expect(processor(other)).rejects.toThrow(
      `children: the units listed for N(6, 2) are not those of plan ${planId}`,
    );
  });

  it('sums an N(n, D) that names no plan from the units stored for it, leaving its record as it is', async () => {
    for (const [d, value] of ['27', '2', '0'].entries()) await storeWhole(3, d, value);
    // N(3, 1) as a build before plans wrote it: no plan id.
    await fixture.store.putDepth(withoutPlan((await fixture.store.depths(3)).get(1)));
    expect(await processor(await sumJob(3))).toEqual({
      kind: 'sum',
      n: 3,
      S: KNOWN_S[2],
      N: ['27', '2', '0'],
    });
    expect((await fixture.store.depths(3)).get(1)?.planId).toBeUndefined();
  });

  it('leaves alone an N(n, D) it cannot read, and withdraws nothing', async () => {
    for (const [d, value] of ['4', '0'].entries()) await storeWhole(2, d, value);
    await processor(await sumJob(2));
    expect((await fixture.store.record(2))?.S).toBe(KNOWN_S[1]);
    // N(2, 1) without a plan and with no unit: nothing here can tell whether it holds.
    await fixture.store.putDepth(withoutPlan((await fixture.store.depths(2)).get(1)));
    await fixture.redis.del(fixture.store.keys.units(2, 1));
    await (await fixture.queue.getJob(sumJobId(2)))?.remove();
    const refused = processor(await sumJob(2));
    await expect(refused).rejects.toBeInstanceOf(bullmq.UnrecoverableError);
    await expect(refused).rejects.toThrow(
      'S(2) not published: records this build cannot read, left alone: ' +
        'D = 1: its record names no plan, and no unit of it is stored',
    );
    // S(2), its record and N(2, 1) all stay; no disagreement is recorded.
    expect((await fixture.store.record(2))?.S).toBe(KNOWN_S[1]);
    expect((await fixture.store.sums([2])).get(2)).toBe(KNOWN_S[1]);
    expect((await fixture.store.depths(2)).get(1)?.value).toBe('0');
    expect(await fixture.store.mismatch(2)).toBeUndefined();
  });

  it('refuses a job that is neither a depth nor a sum', async () => {
    const job = await fixture.queue.add('average', { sweepId: 's-test', n: 4 });
    const refused = processor(job);
    await expect(refused).rejects.toBeInstanceOf(bullmq.UnrecoverableError);
    await expect(refused).rejects.toThrow(
      'job name: "average" is not allowed; expected "depth" or "sum"',
    );
  });

  /** N(n, D) as a build before plans wrote it. */
  const withoutPlan = (depth: DepthResult | undefined): DepthResult => {
    if (!depth) throw new Error('no N(n, D) stored to rewrite');
    const rest = { ...depth };
    delete rest.planId;
    return rest;
  };

  const sumJob = (n: number) =>
    fixture.queue.add(JOB_NAMES.sum, { sweepId: 's-test', n }, { jobId: sumJobId(n) });
});
