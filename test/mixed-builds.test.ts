// Two worker builds on one Redis: a worker that speaks another protocol (WQ_TEST_PROTOCOL, a
// test-only switch that makes it consume that protocol's queues and say so in its heartbeat, as
// a worker of another build does) beside one of this build. A sweep ends exact without a retry,
// neither worker takes the other's jobs, `wq status` names the other build, and `wq verify`
// withdraws nothing, not even where it meets records it cannot read.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { PipelineClient } from '@weak-queens/shared/client';
import { KNOWN_S, QUEUE_NAMES, queueNamesOf, storeKeys } from '@weak-queens/shared/contracts';
import { pipelineFixture, type TestPipeline, until } from './src/index.js';
import { runWq, sumLines } from './src/wq-cli.js';

const redis = pipelineFixture();
const NS = Array.from({ length: 12 }, (_, i) => i + 1);

/** The first protocol: every build before protocols were numbered. */
const OLD = 1;

/** This build's worker and one of protocol OLD, both live; their ids. */
async function startMixedFleet(
  pipeline: TestPipeline,
): Promise<{ current: string; other: string }> {
  pipeline.startWorker();
  pipeline.startWorker({ env: { WQ_TEST_PROTOCOL: String(OLD) } });
  const { registry } = pipeline.client;
  await until(
    'a worker of each build to be live',
    async () =>
      (await registry.liveWorkers()).length === 1 &&
      (await registry.otherProtocolWorkers()).length === 1,
  );
  const [current] = await registry.liveWorkers();
  const [other] = await registry.otherProtocolWorkers();
  return { current: current?.id ?? '', other: other?.id ?? '' };
}

/** Every finished job of these queues: who took it, and how often it was started. */
async function finishedJobs(
  pipeline: TestPipeline,
  names: readonly string[],
): Promise<{ id: string; by: string | undefined; started: number }[]> {
  const jobs: { id: string; by: string | undefined; started: number }[] = [];
  for (const name of names) {
    const queue = new Queue(name, { connection: { url: pipeline.url }, prefix: pipeline.prefix });
    for (const job of await queue.getJobs(['completed', 'failed'])) {
      jobs.push({ id: String(job.id), by: job.processedBy, started: job.attemptsStarted });
    }
    await queue.close();
  }
  return jobs;
}

/** Rewrites stored N(n, D) as a build that knew no plans wrote it; `units: false` drops them too. */
async function asPlanless(
  pipeline: TestPipeline,
  n: number,
  depth: number,
  options: { units: boolean },
): Promise<void> {
  const keys = storeKeys(pipeline.prefix);
  const raw = new Redis(pipeline.url);
  try {
    const json = await raw.hget(keys.depths(n), String(depth));
    const record = JSON.parse(json ?? '{}') as Record<string, unknown>;
    expect(record.planId).toMatch(/^[0-9a-f]{12}$/);
    delete record.planId;
    await raw.hset(keys.depths(n), String(depth), JSON.stringify(record));
    if (!options.units) await raw.del(keys.units(n, depth));
  } finally {
    raw.disconnect();
  }
}

async function storedSums(client: PipelineClient, ns: readonly number[]): Promise<string[]> {
  const sums = await client.store.sums(ns);
  return ns.map((n) => sums.get(n) ?? 'missing');
}

describe('when a worker of another build shares the Redis', () => {
  it('a sweep ends exact without a retry, the other takes none of its jobs, status names it, and wq verify withdraws nothing', async () => {
    const pipeline = redis.openPipeline('mixed');
    const { url, prefix, client } = pipeline;
    const { current, other } = await startMixedFleet(pipeline);

    // A job of the old protocol's queue goes to the old worker only (it is not a job this
    // build made: that worker refuses it, which is how it shows who took it).
    const oldCount = new Queue(queueNamesOf(OLD).count, { connection: { url }, prefix });
    await oldCount.add('unit', { n: 5 }, { jobId: 'old-build-job', attempts: 1 });
    await until('the old worker to take its job', async () =>
      ['completed', 'failed'].includes(await oldCount.getJobState('old-build-job')),
    );
    expect((await oldCount.getJob('old-build-job'))?.processedBy).toBe(other);
    await oldCount.close();

    const sweep = await runWq(['sweep', '1-12', '--wait', '--json'], { url, prefix });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(NS.map((n) => [n, KNOWN_S[n - 1]]));

    // Every job of the sweep was taken by this build's worker, each started once: no retry.
    const jobs = await finishedJobs(pipeline, [QUEUE_NAMES.count, QUEUE_NAMES.aggregate]);
    expect(jobs.length).toBeGreaterThanOrEqual(12 + 78);
    expect(jobs.filter((j) => j.by !== current || j.started !== 1)).toEqual([]);
    // The old worker's own count, at a heartbeat sent after the sweep: its queue's job only.
    const heartbeatOf = async () =>
      (await client.registry.otherProtocolWorkers()).find((w) => w.id === other);
    const after = (await heartbeatOf())?.heartbeatAt;
    await until(
      'the old worker to beat again',
      async () => (await heartbeatOf())?.heartbeatAt !== after,
    );
    expect((await heartbeatOf())?.jobsDone).toBe(1);

    const status = await runWq(['status'], { url, prefix });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('workers: 1 live\n');
    expect(status.stdout).toMatch(
      new RegExp(
        `^ {2}${other} \\(protocol ${OLD}: another build [^)]*takes none of this build's jobs\\)$`,
        'm',
      ),
    );

    const verify = await runWq(['verify', '1-12'], { url, prefix });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout.trim().split('\n')).toEqual(
      NS.map((n) => `n=${n} verified: S(${n}) = ${KNOWN_S[n - 1]}`),
    );
    expect(await storedSums(client, NS)).toEqual(KNOWN_S.slice(0, 12));
  });

  it('says so when a sweep is planned and only workers of another build are live', async () => {
    const pipeline = redis.openPipeline('mixed-none');
    const { url, prefix } = pipeline;
    const old = pipeline.startWorker({ env: { WQ_TEST_PROTOCOL: String(OLD) } });
    await until(
      'the old worker to be live',
      async () => (await pipeline.client.registry.otherProtocolWorkers()).length === 1,
    );
    const [other] = await pipeline.client.registry.otherProtocolWorkers();
    const sweep = await runWq(['sweep', '6'], { url, prefix });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stderr).toBe(
      `sweep ${/^sweep (\S+):/.exec(sweep.stdout)?.[1]}: no live worker speaks this build's protocol 2; ` +
        `${other?.id} (protocol ${OLD}) is of another build and takes none of its jobs: ` +
        'start a worker of this build (wq worker)\n',
    );
    expect(old.exitCode).toBeNull();
  });
});

describe("when a sweep of another build's protocol is unfinished", () => {
  it('shows it as such, and leaves cancel, retry and replan to that build', async () => {
    const pipeline = redis.openPipeline('old-sweep');
    const { url, prefix, client } = pipeline;
    // A sweep as a build before protocols recorded it (no protocol field): its jobs, were
    // there any, would be in the queues this build does not read.
    const old = {
      id: 's-oldbuild',
      ns: [9],
      createdAt: new Date().toISOString(),
      targetSeconds: 30,
      units: { '9': 4 },
      submittedAt: new Date().toISOString(),
    };
    await client.registry.save(old);
    const status = await runWq(['status'], { url, prefix });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(
      "  (protocol 1: another build's sweep, followed by its wq status)\n",
    );
    for (const verb of ['retry', 'replan', 'cancel']) {
      const run = await runWq([verb, old.id], { url, prefix });
      expect({ verb, ...run }).toEqual({
        verb,
        code: 2,
        stdout: '',
        stderr:
          `wq ${verb}: sweep: "s-oldbuild" is not allowed; expected a sweep this build queued ` +
          "(protocol 2); this one is protocol 1's (another build): its wq acts on it, or wq " +
          'sweep counts n = 9 here\n',
      });
    }
    expect((await client.registry.get(old.id)).cancelledAt).toBeUndefined();
  });
});

describe('when wq verify meets N(n, D) records that name no plan', () => {
  it('checks one by the units stored for it, and leaves one it cannot read alone, withdrawing nothing', async () => {
    const pipeline = redis.openPipeline('planless', { workers: 1 });
    const { url, prefix, client } = pipeline;
    const sweep = await runWq(['sweep', '7-8', '--wait', '--json'], { url, prefix });
    expect(sweep.code, sweep.stderr).toBe(0);
    // N(7, 3) as a build before plans wrote it, its units still stored; N(8, 3) the same with
    // its units gone, so that nothing here can tell whether it holds.
    await asPlanless(pipeline, 7, 3, { units: true });
    await asPlanless(pipeline, 8, 3, { units: false });

    const verify = await runWq(['verify', '7-8'], { url, prefix });
    expect(verify.code).toBe(1);
    const [seven, eight, ...rest] = verify.stdout.trim().split('\n');
    expect(rest).toEqual([]);
    expect(seven).toBe(`n=7 verified: S(7) = ${KNOWN_S[6]}`);
    expect(eight).toBe(
      'n=8 unreadable: S(8) not published: records this build cannot read, left alone: ' +
        `D = 3: its record names no plan, and no unit of it is stored; S(8) = ${KNOWN_S[7]} stays`,
    );
    // Nothing withdrawn: both S(n) still published, and no disagreement recorded.
    expect(await storedSums(client, [7, 8])).toEqual([KNOWN_S[6], KNOWN_S[7]]);
    expect(await client.store.mismatch(8)).toBeUndefined();
  });
});
