// `wq sweep --verify` and the known references, with real workers and a real Redis: a second
// count by another algorithm, fetched once like any job, S(n) published only when both agree, and a
// disagreement (a corrupted stored count) failing the n with both values.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  PipelineClient,
  planCheck,
  ResultStore,
  type SweepProgress,
} from '@weak-queens/shared/client';
import {
  KNOWN_S,
  planIdOf,
  QUEUE_NAMES,
  type UnitResult,
  wholeDepth,
} from '@weak-queens/shared/contracts';
import { DEFAULT_SLOT_MEMORY_BYTES } from '@weak-queens/shared/kernel';
import { baselineN, pipelineFixture, until } from './src/index.js';
import { runWq } from './src/wq-cli.js';

/** S(1..8), from the one list of reference values. */
const S = KNOWN_S.slice(0, 8);

const redis = pipelineFixture();
let prefix: string;

function setUp(label: string): PipelineClient {
  const pipeline = redis.openPipeline(label, { workers: 2 });
  prefix = pipeline.prefix;
  return pipeline.client;
}

/**
 * Stores a wrong count for a whole (unsplit) unit, as a worker that counted wrong would leave
 * it: under a recorded one-unit plan, the unit and N(n, D) naming that plan.
 */
async function corrupt(n: number, depth: number, value: string): Promise<void> {
  const header = { n, depth, role: 'primary', algorithm: 'window-transfer', units: 1 } as const;
  const planId = planIdOf(header, ['*']);
  const unit: UnitResult = {
    kind: 'unit',
    n,
    depth,
    unit: '*',
    value,
    algorithm: 'window-transfer',
    seconds: 0.001,
    worker: 'w-corrupt',
    weight: 1,
    planId,
  };
  const raw = new Redis(redis.url);
  const store = new ResultStore(raw, prefix);
  await store.putPlan(
    header,
    planId,
    new Map([['*', { weight: 1, modelSeconds: 0.001, boundSeconds: 600 }]]),
  );
  await store.putUnit(unit);
  // N(n, D) itself, as the planner finds it stored (whatever split it would plan now).
  await store.putDepth(wholeDepth(unit));
  raw.disconnect();
}

async function settle(c: PipelineClient, id: string): Promise<SweepProgress> {
  for (let i = 0; i < 600; i++) {
    const progress = await c.progress(id);
    if (progress.sizes.every((s) => s.state === 'done' || s.state === 'failed')) return progress;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sweep ${id} did not settle`);
}

describe('when a sweep is verified', () => {
  it('counts every (n, D) twice, by different algorithms, each job fetched once, and publishes S(n)', async () => {
    const c = setUp('verify');
    // Both workers live before the sweep is planned: the plan is then the same on every run.
    await until(
      'both workers to be live',
      async () => (await c.registry.liveWorkers()).length === 2,
    );
    const run = await runWq(['sweep', '1-8', '--verify', '--wait', '--json'], {
      url: redis.url,
      prefix,
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { S: string });
    expect(lines.map((l) => l.S)).toEqual(S);

    for (let n = 1; n <= 8; n++) {
      const record = await c.store.record(n);
      expect(record?.S).toBe(S[n - 1]);
      const checks = record?.checks ?? [];
      expect(checks.map((d) => d.depth)).toEqual(record?.depths.map((d) => d.depth));
      record?.depths.forEach((first, d) => {
        const check = checks[d]!;
        expect(first.value).toBe(baselineN(n, d));
        expect(check.value).toBe(first.value);
        expect(check.role).toBe('check');
        expect(check.algorithm).not.toBe(first.algorithm);
      });
    }
    // A second count waits for its first as a parent job (no polling): nothing is fetched and
    // put back, so every job of the sweep was started exactly once.
    const starts: Record<string, number> = {};
    for (const name of [QUEUE_NAMES.count, QUEUE_NAMES.aggregate]) {
      const queue = new Queue(name, { connection: { url: redis.url }, prefix });
      for (const job of await queue.getJobs(['completed'])) {
        starts[String(job.id)] = job.attemptsStarted;
      }
      await queue.close();
    }
    // 8 sums, 36 first and 36 second counts of an (n, D), and their units beyond the first.
    expect(Object.keys(starts).length).toBeGreaterThanOrEqual(8 + 36 + 36);
    expect(Object.entries(starts).filter(([, started]) => started !== 1)).toEqual([]);
  });
});

describe('when the other algorithm would cost many times the first count', () => {
  it("counts a DFS (n, D) again by the DFS, over its units' mirror images, and agrees", async () => {
    const c = setUp('verify-dfs');
    // N(14, 10 … 13): the DFS counts each in a few hundredths of a second; the transfer would
    // take 30 to 50 times as long, so the second count searches the mirror images instead.
    const run = await runWq(['sweep', '14', '--verify', '--wait', '--json'], {
      url: redis.url,
      prefix,
    });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout.trim()) as { S: string }).S).toBe(KNOWN_S[13]);
    const record = await c.store.record(14);
    // D = 8, 9: the transfer is affordable beside the DFS there, and checks it.
    const afterDfs = (record?.checks ?? [])
      .filter((check) => record?.depths[check.depth]?.algorithm === 'dfs')
      .map((check) => [check.depth, check.algorithm, check.value]);
    expect(afterDfs).toEqual([
      [8, 'window-transfer', baselineN(14, 8)],
      [9, 'window-transfer', baselineN(14, 9)],
      ...[10, 11, 12, 13].map((d) => [d, 'dfs', baselineN(14, d)]),
    ]);
  });
});

describe('when the two counts of an (n, D) disagree', () => {
  it('fails the n with both values, publishes the others, and retry counts it again', async () => {
    const c = setUp('disagree');
    // N(7, 1) = 45514; the stored first count says 45515. (D = 1: the window transfer is the
    // first count there; from D = 2 on the DFS is.)
    await corrupt(7, 1, '45515');
    const check = planCheck(7, 1, 'window-transfer', {
      targetSeconds: 30,
      slotMemoryBytes: DEFAULT_SLOT_MEMORY_BYTES,
    });
    expect(check.algorithm).not.toBe('window-transfer');

    const { sweep } = await c.submit([6, 7], { verify: true });
    const progress = await settle(c, sweep.id);
    expect(progress.sizes.map((s) => [s.n, s.state, s.S])).toEqual([
      [6, 'done', S[5]],
      [7, 'failed', undefined],
    ]);
    const reason = `S(7) not published: N(7, 1): window-transfer counted 45515, ${check.algorithm} counted 45514`;
    expect(progress.sizes[1]?.reason).toBe(reason);
    const mismatch = await c.store.mismatch(7);
    expect(mismatch?.depths).toEqual([
      {
        depth: 1,
        value: '45515',
        algorithm: 'window-transfer',
        workers: ['w-corrupt'],
        expected: '45514',
        expectedFrom: check.algorithm,
        expectedWorkers: expect.arrayContaining([expect.stringMatching(/./)]) as string[],
      },
    ]);
    expect((await c.store.sums([7])).has(7)).toBe(false);
    const status = await runWq(['status'], { url: redis.url, prefix });
    expect(status.stdout).toContain(`  n =  7  failed   `);
    expect(status.stdout).toContain(reason);

    // Both counts of N(7, 1) were forgotten: a retry counts them again, and they agree.
    expect((await c.store.depths(7)).has(1)).toBe(false);
    const retry = await runWq(['retry', sweep.id], { url: redis.url, prefix });
    expect(retry.code, retry.stderr).toBe(0);
    await c.waitFor(sweep.id);
    const record = await c.store.record(7);
    expect(record?.S).toBe(S[6]);
    expect(record?.depths[1]?.value).toBe('45514');
    expect(record?.checks?.[1]?.value).toBe('45514');
    expect(await c.store.mismatch(7)).toBeUndefined();
  });
});

describe('when a count disagrees with a published value', () => {
  it('fails the n even without --verify, naming the reference', async () => {
    const c = setUp('reference');
    await corrupt(6, 0, '46657');
    const { sweep } = await c.submit([5, 6]);
    const progress = await settle(c, sweep.id);
    expect(progress.sizes.map((s) => [s.n, s.state, s.S])).toEqual([
      [5, 'done', S[4]],
      [6, 'failed', undefined],
    ]);
    expect(progress.sizes[1]?.reason).toBe(
      'S(6) not published: N(6, 0): window-transfer counted 46657, the reference n^n is 46656',
    );
    expect((await c.store.mismatch(6))?.depths).toEqual([
      {
        depth: 0,
        value: '46657',
        algorithm: 'window-transfer',
        workers: ['w-corrupt'],
        expected: '46656',
        expectedFrom: 'n^n',
      },
    ]);
  });
});
