// `wq cancel <sweep>` and `wq retry <sweep>` through the real command line, with real worker
// processes and a real Redis: what is removed, what is re-run, and the exact values after.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { SweepFailedError, type StatusReport } from '@weak-queens/shared/client';
import { storeKeys, KNOWN_S } from '@weak-queens/shared/contracts';
import { baselineCounts, pipelineFixture } from './src/index.js';
import { runWq } from './src/wq-cli.js';

/** S(1..8) from PROBLEM.md and the seed's table. */
/** S(1..8), from the one list of reference values. */
const S = KNOWN_S.slice(0, 8);

const redis = pipelineFixture();

describe('when a queued sweep is cancelled and then retried', () => {
  it('removes every job, keeps the sweep, and retry computes it exactly', async () => {
    const pipeline = redis.openPipeline('cancel');
    const { client, prefix } = pipeline;
    const ns = [1, 2, 3, 4, 5, 6, 7, 8];
    // No worker yet: every job is still waiting when the cancel comes.
    const submission = await client.submit(ns);
    const id = submission.sweep.id;
    expect(await client.jobTotal()).toBe(submission.added);

    const cancel = await runWq(['cancel', id], { url: redis.url, prefix });
    expect(cancel).toEqual({
      code: 0,
      stdout: `sweep ${id}: cancelled n = 1, 2, 3, 4, 5, 6, 7, 8\n`,
      stderr: '',
    });
    expect(await client.jobTotal()).toBe(0);

    const status = await runWq(['status', '--json'], { url: redis.url, prefix });
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as StatusReport;
    const sweep = report.sweeps.find((s) => s.sweep.id === id);
    expect(sweep?.sweep.cancelledAt).toEqual(expect.any(String));
    expect(sweep?.sizes.map((s) => s.state)).toEqual(ns.map(() => 'cancelled'));
    expect(sweep?.done).toBe(0);
    await expect(client.waitFor(id)).rejects.toBeInstanceOf(SweepFailedError);

    const retry = await runWq(['retry', id], { url: redis.url, prefix });
    expect(retry).toEqual({
      code: 0,
      stdout: `sweep ${id}: ${submission.added} jobs added again\n`,
      stderr: '',
    });
    pipeline.startWorkers(2);
    const done = await client.waitFor(id);
    expect(done.sizes.map((s) => s.S)).toEqual(S);
    expect((await client.results(ns)).map((r) => r.S)).toEqual(S);
  });

  it('says so and exits 2 for a sweep that does not exist', async () => {
    const { prefix } = redis.openPipeline('cancel');
    const cancel = await runWq(['cancel', 's-nope'], { url: redis.url, prefix });
    expect(cancel.code).toBe(2);
    expect(cancel.stdout).toBe('');
    expect(cancel.stderr).toBe(
      'wq cancel: sweep: "s-nope" is not allowed; expected a sweep id (none exist yet)\n',
    );
    const retry = await runWq(['retry', 's-nope'], { url: redis.url, prefix });
    expect(retry.code).toBe(2);
    expect(retry.stderr).toBe(
      'wq retry: sweep: "s-nope" is not allowed; expected a sweep id (none exist yet)\n',
    );
  });
});

describe('when one n of a sweep fails', () => {
  it('shows it failed with its reason, finishes the others, and retry re-runs only it', async () => {
    // One try per job, so the failure is final at once.
    const pipeline = redis.openPipeline('retry', { env: { WQ_ATTEMPTS: '1' } });
    const { client, prefix } = pipeline;
    // An unreadable stored result for N(6, 0) (an unsplit unit, the window transfer's; from
    // D = 1 on the DFS splits n = 6): its job cannot succeed.
    const keys = storeKeys(prefix);
    const raw = new Redis(redis.url);
    await raw.hset(keys.units(6, 0), '*', 'not json');
    pipeline.startWorkers(2);

    const submission = await client.submit([4, 5, 6, 7]);
    const id = submission.sweep.id;
    let progress = await client.progress(id);
    for (
      let i = 0;
      i < 600 && progress.sizes.some((s) => s.state !== 'done' && s.state !== 'failed');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      progress = await client.progress(id);
    }
    expect(progress.sizes.map((s) => [s.n, s.state, s.S])).toEqual([
      [4, 'done', S[3]],
      [5, 'done', S[4]],
      [6, 'failed', undefined],
      [7, 'done', S[6]],
    ]);
    expect(progress.sizes[2]?.reason).toMatch(/^n6-d0: .*JSON/);
    await expect(client.waitFor(id)).rejects.toThrow(`sweep ${id}: n=6 cannot finish: n6-d0: `);

    const status = await runWq(['status'], { url: redis.url, prefix });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('  n =  6  failed   ');

    // Repair the store; retry removes the failed flow and adds back only what is missing:
    // the S(6) job and the unit of D = 0 (every other D of n = 6 is stored).
    await raw.hdel(keys.units(6, 0), '*');
    raw.disconnect();
    const retry = await runWq(['retry', id], { url: redis.url, prefix });
    expect(retry).toEqual({ code: 0, stdout: `sweep ${id}: 2 jobs added again\n`, stderr: '' });
    const done = await client.waitFor(id);
    expect(done.sizes.map((s) => s.S)).toEqual(S.slice(3, 7));
    const [six] = await client.results([6]);
    expect(six?.N).toEqual(baselineCounts(6));
    expect(six?.N[0]).toBe('46656');
  });
});
