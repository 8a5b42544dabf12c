// A unit that fails on every attempt (WQ_TEST_FAIL_JOBS, a test-only switch of the worker):
// after the configured attempts it is failed with its reason, the sweep shows it, the other work
// goes on, and `wq retry` re-runs only what is missing once the cause is gone.
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { SweepFailedError } from '@weak-queens/shared/client';
import { QUEUE_NAMES, knownSums } from '@weak-queens/shared/contracts';
import { pidOfWorkerName, pipelineFixture, stopWorkers, unitRecords, until } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const FAILING = 'n12-d9-u2';
const REASON = `injected failure: job ${FAILING} is listed in WQ_TEST_FAIL_JOBS (test only)`;

describe('when a unit fails on every attempt', () => {
  const redis = pipelineFixture();

  it('fails it after the attempts, finishes the rest, and wq retry completes the sweep', async () => {
    // Two tries per job, one second apart (the planner's exponential backoff).
    const pipeline = redis.openPipeline('failing', { env: { WQ_ATTEMPTS: '2' } });
    const { client, prefix } = pipeline;
    const count = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    pipeline.defer(() => count.close());
    const env = { WQ_TEST_FAIL_JOBS: FAILING };
    let workers = pipeline.startWorkers(2, { env });
    const ns = [11, 12, 13];
    // A target small enough that N(12, 9) is split into at least three (the planner keeps
    // wholes within 4× the target).
    const { sweep } = await client.submit(ns, { targetSeconds: 0.0003 });
    const id = sweep.id;

    await until('n = 11 and 13 done, n = 12 failed', async () => {
      const p = await client.progress(id);
      return p.sizes.every((s) => s.state === (s.n === 12 ? 'failed' : 'done'));
    });
    const failed = (await count.getJobs(['failed'])).find((j) =>
      /^n12-d9-p[0-9a-f]{12}-u2$/.test(String(j.id)),
    );
    const failingId = String(failed?.id);
    expect(await failed?.getState()).toBe('failed');
    expect(failed?.attemptsMade).toBe(2);
    expect(failed?.failedReason).toBe(REASON);

    // The sweep shows it: the follower fails naming the unit and its reason, and so does status.
    await expect(client.waitFor(id)).rejects.toBeInstanceOf(SweepFailedError);
    await expect(client.waitFor(id)).rejects.toThrow(`n=12 cannot finish: ${failingId}: ${REASON}`);
    const status = await runWq(['status'], { url: redis.url, prefix });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`n = 12 {2}failed .*${failingId}: injected failure`));

    // The other work went on: S(11), S(13) exact, and every other unit of n = 12 stored.
    const progress = await client.progress(id);
    const done = new Map(progress.sizes.filter((s) => s.S).map((s) => [s.n, s.S]));
    expect(done).toEqual(knownSums([11, 13]));
    const twelve = progress.sizes.find((s) => s.n === 12);
    await until('the rest of n = 12 to be stored', async () => {
      const stored = await unitRecords(client.store, [12]);
      return stored.size === (twelve?.units ?? 0) - 1;
    });
    const before = await unitRecords(client.store, [12]);
    expect([...before.keys()]).not.toContain('12/9/2');

    // The cause goes away (workers without the switch); retry adds back only the missing unit,
    // its N(12, 9) and S(12), and computes nothing else again.
    await stopWorkers(workers);
    workers = pipeline.startWorkers(2);
    const retry = await runWq(['retry', id], { url: redis.url, prefix });
    expect(retry).toEqual({ code: 0, stdout: `sweep ${id}: 3 jobs added again\n`, stderr: '' });
    await client.waitFor(id);
    const results = await client.results(ns);
    expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(ns));

    const after = await unitRecords(client.store, [12]);
    expect(after.size).toBe(before.size + 1);
    for (const [key, record] of before) expect(after.get(key), key).toEqual(record);
    const retried = [...after].find(([key]) => !before.has(key))?.[1];
    expect(workers.map((w) => w.pid)).toContain(pidOfWorkerName(retried?.worker));
  });
});
