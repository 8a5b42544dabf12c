// kill -9 of worker processes: stall detection puts their units back, other workers finish them,
// the sums are exact, and nothing already in the result store is computed a second time.
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { compileConfig, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import {
  expectExactSweep,
  deletePrefix,
  keepTransferAt14x8,
  killHard,
  pidOfWorkerName,
  startWorker,
  uniquePrefix,
  unitRecords,
  until,
  faultPipelineFixture,
  recordOneUnitPlan,
  baselineN,
} from './src/index.js';

describe('when worker processes are killed with SIGKILL', () => {
  const faults = faultPipelineFixture();

  it('has another worker finish a unit whose worker died in the middle of it', async () => {
    const { prefix, client, count, spawn } = faults.pipeline('kill-one');
    await keepTransferAt14x8(faults.url, prefix);
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
    const victim = faults.workers.find((w) => w.pid === victimPid);
    expect(victim, `a worker with pid ${victimPid}`).toBeDefined();
    await killHard(victim as ChildProcess);
    // Killed in the middle: the unit has no value yet and is still held by the dead worker.
    expect((await client.store.units(14, 8)).size).toBe(0);
    expect(await count.getJobState(victimJob)).toBe('active');

    // Stall detection puts it back once: seen before the sweep ends, since finished jobs are
    // removed by the retention policy once a queue holds more than 1000.
    await until(
      'N(14, 8) to be put back by stall detection',
      async () => (await count.getJob(victimJob))?.stalledCounter === 1,
    );
    await expectExactSweep(client, sweep.id, ns);

    const survivor = faults.workers.find((w) => w !== victim);
    const unit = (await client.store.units(14, 8)).get('*');
    expect(unit?.worker).toMatch(new RegExp(`-${survivor?.pid}$`));
    expect(unit?.value).toBe(baselineN(14, 8));
  });

  it('finishes the sweep on new workers without recomputing any stored unit', async () => {
    const { client, spawn } = faults.pipeline('kill-all');
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
    await expectExactSweep(client, sweep.id, ns);

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

  it("runs a dead worker's unit again within lock + stall interval, the interval a quarter of the lock", async () => {
    // The README's bound: WQ_LOCK_MS + WQ_STALLED_INTERVAL_MS, 24 s + 6 s by default. Measured
    // here on a 4 s lock, whose derived interval is 1 s.
    const env = { WQ_LOCK_MS: '4000' };
    const config = compileConfig(env);
    expect(config.stalledIntervalMs).toBe(1000);
    const bound = config.lockMs + config.stalledIntervalMs;
    const prefix = uniquePrefix('bound');
    const queue = new Queue(QUEUE_NAMES.count, { connection: { url: faults.url }, prefix });
    faults.defer(async () => {
      await queue.close();
      await deletePrefix(faults.url, prefix);
    });
    // Classic 16-queens as one unit: Q(16) = 14772512, several seconds of DFS. Workers count
    // only planned units, so the plan of this one unit is recorded first.
    const planId = await recordOneUnitPlan(faults.url, prefix, 16, 15);
    const data = {
      sweepId: 's-bound',
      n: 16,
      depth: 15,
      algorithm: 'dfs',
      prefix: [],
      weight: 1,
      planId,
      estimateSeconds: 4,
      whole: true,
    };
    await queue.add('unit', data, { jobId: 'n16-d15', attempts: 1 });
    faults.workers.push(startWorker({ url: faults.url, prefix, env }));
    let victimPid: number | undefined;
    await until('the unit to start', async () => {
      const job = await queue.getJob('n16-d15');
      victimPid =
        (await job?.getState()) === 'active' ? pidOfWorkerName(job?.processedBy) : undefined;
      return victimPid !== undefined;
    });
    faults.workers.push(startWorker({ url: faults.url, prefix, env }));
    await new Promise((r) => setTimeout(r, 500));
    const victim = faults.workers.find((w) => w.pid === victimPid) as ChildProcess;
    await killHard(victim);
    const killedAt = Date.now();
    await until(
      'the unit to run again',
      async () => ((await queue.getJob('n16-d15'))?.stalledCounter ?? 0) === 1,
      bound + 5000,
    );
    const waited = Date.now() - killedAt;
    expect(waited).toBeLessThanOrEqual(bound + 500);
    await until(
      'the unit to complete',
      async () => (await queue.getJobState('n16-d15')) === 'completed',
    );
    const done = await queue.getJob('n16-d15');
    expect((done?.returnvalue as { value: string }).value).toBe('14772512');
    expect(pidOfWorkerName(done?.processedBy)).not.toBe(victimPid);
  });
});
