// End to end: a sweep on two real worker processes against a real Redis.
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { QUEUE_NAMES, KNOWN_S } from '@weak-queens/shared/contracts';
import { baselineCounts, baselineN, pipelineFixture } from './src/index.js';

// S(1..11), from the shared list of published values.
const S = KNOWN_S.slice(0, 11);
const SIZES = S.map((_, i) => i + 1);

describe('when a sweep runs on two worker processes', () => {
  const redis = pipelineFixture({ closeAfter: 'all' });
  let prefix: string;
  let client: PipelineClient;
  let workers: ChildProcess[] = [];
  let sweepId: string;

  beforeAll(() => {
    // A small target splits the heavier (n, D) into units, so splits are exercised too (a whole
    // within 4× the target stays one unit: 0.0001 s splits those of n = 11 that 0.02 s no
    // longer does).
    ({ prefix, client, workers } = redis.openPipeline('e2e', {
      workers: 2,
      env: { WQ_TARGET_SECONDS: '0.0001' },
    }));
  });

  it('fails a job with invalid data with its reason and keeps serving', async () => {
    const queue = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    try {
      const job = await queue.add(
        'unit',
        { sweepId: 's-bad', n: 40, depth: 3, algorithm: 'dfs', prefix: [], weight: 1 },
        { jobId: 'bad-n40', attempts: 3 },
      );
      let state = await job.getState();
      for (let i = 0; i < 200 && state !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = await job.getState();
      }
      const failed = await queue.getJob('bad-n40');
      expect(state).toBe('failed');
      expect(failed?.failedReason).toBe(
        'unit job.n: 40 is not allowed; expected an integer from 1 to 32',
      );
      // Unrecoverable: one attempt, no retries.
      expect(failed?.attemptsMade).toBe(1);
      await failed?.remove();
    } finally {
      await queue.close();
    }
    expect(workers.every((w) => w.exitCode === null)).toBe(true);
  });

  it('gives exactly the reference S(n) and the C++ baseline N(n, D) for n = 1..11', async () => {
    const submission = await client.submit(SIZES);
    sweepId = submission.sweep.id;
    expect(submission.sizes.every((s) => s.outcome === 'added')).toBe(true);
    await client.waitFor(sweepId);
    const results = await client.results(SIZES);
    expect(results.map((r) => r.S)).toEqual(S);
    for (const r of results) {
      expect(r.N).toEqual(baselineCounts(r.n));
    }
  });

  it('sums an (n, D) split into units to its exact value', async () => {
    const record = await client.store.record(11);
    const split = record?.depths.filter((d) => d.units > 1) ?? [];
    expect(split.length).toBeGreaterThan(0);
    for (const d of split) {
      expect(d.value).toBe(baselineN(11, d.depth));
      const units = await client.store.units(11, d.depth);
      expect(units.size).toBe(d.units);
      expect([...units.values()].reduce((t, u) => t + BigInt(u.value), 0n).toString()).toBe(
        d.value,
      );
    }
    expect(record?.S).toBe(S[10]);
  });

  it('adds no job and computes nothing when the same sweep is submitted again', async () => {
    const jobsBefore = await client.jobTotal();
    const unitsBefore = JSON.stringify(await client.store.units(11, 5));
    const again = await client.submit(SIZES);
    expect(again.added).toBe(0);
    expect(again.sizes.every((s) => s.outcome === 'stored')).toBe(true);
    expect(await client.jobTotal()).toBe(jobsBefore);
    await client.waitFor(again.sweep.id);
    expect(JSON.stringify(await client.store.units(11, 5))).toBe(unitsBefore);
  });

  it('shows the sweep done in status and the live workers', async () => {
    const report = await client.status();
    const sweep = report.sweeps.find((s) => s.sweep.id === sweepId);
    expect(sweep?.done).toBe(11);
    expect(sweep?.total).toBe(11);
    expect(report.workers).toHaveLength(2);
  });
});
