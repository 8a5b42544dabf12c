// kill -9 of worker processes: stall detection puts their units back, other workers finish them,
// the sums are exact, and nothing already in the result store is computed a second time.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countPlacements } from '@weak-queens/shared';
import {
  keepTransferAt14x8,
  killHard,
  knownS,
  pidOfWorkerName,
  startTestRedis,
  stopWorkers,
  type TestRedis,
  unitRecords,
  until,
  openFaultPipeline,
} from './src/index.js';

describe('when worker processes are killed with SIGKILL', () => {
  let redis: TestRedis;
  let workers: ChildProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
  });

  afterEach(async () => {
    await stopWorkers(workers);
    workers = [];
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  function pipeline(label: string) {
    const opened = openFaultPipeline(redis.url, label, workers);
    cleanups.push(() => opened.close());
    return opened;
  }

  it('has another worker finish a unit whose worker died in the middle of it', async () => {
    const { prefix, client, count, spawn } = pipeline('kill-one');
    await keepTransferAt14x8(redis.url, prefix);
    spawn();
    spawn();
    const ns = [13, 14];
    const { sweep } = await client.submit(ns);

    // N(14, 8) is one unit of the sweep's longest (about a second of window transfer).
    const victimJob = 'n14-d8';
    let victimPid: number | undefined;
    await until('N(14, 8) to start on a worker', async () => {
      const job = await count.getJob(victimJob);
      if ((await job?.getState()) !== 'active') return false;
      victimPid = pidOfWorkerName(job?.processedBy);
      return victimPid !== undefined;
    });
    const victim = workers.find((w) => w.pid === victimPid);
    expect(victim, `a worker with pid ${victimPid}`).toBeDefined();
    await killHard(victim as ChildProcess);
    // Killed in the middle: the unit has no value yet and is still held by the dead worker.
    expect((await client.store.units(14, 8)).size).toBe(0);
    expect(await count.getJobState(victimJob)).toBe('active');

    await client.waitFor(sweep.id);
    const results = await client.results(ns);
    expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownS(ns));

    const job = await count.getJob(victimJob);
    expect(job?.stalledCounter).toBe(1);
    const survivor = workers.find((w) => w !== victim);
    const unit = (await client.store.units(14, 8)).get('*');
    expect(unit?.worker).toMatch(new RegExp(`-${survivor?.pid}$`));
    expect(unit?.value).toBe(countPlacements(14, 8).toString());
  });

  it('finishes the sweep on new workers without recomputing any stored unit', async () => {
    const { client, spawn } = pipeline('kill-all');
    const first = [spawn(), spawn()];
    const ns = Array.from({ length: 14 }, (_, i) => i + 1);
    const { sweep } = await client.submit(ns);

    // Let part of the sweep finish: some units of n = 14 stored, S(14) not yet.
    await until('part of n = 14 to be stored', async () => {
      const p = await client.progress(sweep.id);
      const n14 = p.sizes.find((s) => s.n === 14);
      return (n14?.unitsDone ?? 0) >= 8;
    });
    await Promise.all(first.map(killHard));
    const before = await unitRecords(client.store, ns);
    const progress = await client.progress(sweep.id);
    expect(progress.sizes.find((s) => s.n === 14)?.state).not.toBe('done');
    expect(before.size).toBeLessThan(progress.units);

    const second = [spawn(), spawn()];
    await client.waitFor(sweep.id);
    const results = await client.results(ns);
    expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownS(ns));

    // Each record names the process that computed it: a stored unit computed again would now
    // name a new worker (and another time). Every one stored before the kill is unchanged, and
    // every other unit was computed once, by one of the new workers.
    const after = await unitRecords(client.store, ns);
    expect(after.size).toBe(progress.units);
    const newPids = second.map((w) => w.pid);
    for (const [key, record] of after) {
      const old = before.get(key);
      if (old) expect(record, key).toEqual(old);
      else expect(newPids, key).toContain(pidOfWorkerName(record.worker));
    }
  });
});
