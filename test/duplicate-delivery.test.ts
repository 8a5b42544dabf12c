// At-least-once delivery: the same unit computed twice (a frozen worker that comes back after
// its unit was re-run, or a second job for the same unit) still counts once in N(n, D) and S(n).
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { JOB_NAMES, QUEUE_NAMES, type UnitResult, KNOWN_S } from '@weak-queens/shared/contracts';
import { FAST_STALLS, pidOfWorkerName, startWorker, until } from './src/index.js';
import { baselineCounts, baselineN } from './src/baseline-counts.js';
import { faultPipelineFixture } from './src/fault-pipeline.js';
import { keepTransferAt14x8 } from './src/transfer-at-14-8.js';

describe('when the same unit is delivered twice', () => {
  const faults = faultPipelineFixture();

  it('counts a unit once when its frozen worker finishes it after another did', async () => {
    const { prefix, client, count } = faults.pipeline('frozen');
    // What each worker says about N(14, 8), by pid.
    const said: { pid: number; msg: unknown }[] = [];
    for (let i = 0; i < 2; i++) {
      const worker = startWorker({
        url: faults.url,
        prefix,
        // Each unit's own line ('unit counted') is at debug level.
        env: { ...FAST_STALLS, LOG_LEVEL: 'debug' },
        onLog: (entry) => {
          if (entry.job === 'n14-d8') said.push({ pid: entry.pid as number, msg: entry.msg });
        },
      });
      faults.workers.push(worker);
    }
    await keepTransferAt14x8(faults.url, prefix);
    const { sweep } = await client.submit([14]);

    let frozenPid: number | undefined;
    // In the kernel, not before: a worker checks the store before it counts, and one frozen
    // before that check would find the unit stored after the thaw and not count it again. The
    // job's progress moves once the kernel reports its first step; the window transfer of
    // N(14, 8) takes about 0.2 s (meet in the middle), so the freeze follows at once.
    await until('N(14, 8) to be counting on a worker', async () => {
      const job = await count.getJob('n14-d8');
      if ((await job?.getState()) !== 'active') return false;
      const progress = job?.progress;
      if (!(typeof progress === 'number' && progress > 0 && progress < 100)) return false;
      frozenPid = pidOfWorkerName(job?.processedBy);
      return frozenPid !== undefined;
    });
    const frozen = faults.workers.find((w) => w.pid === frozenPid) as ChildProcess;
    // SIGSTOP: the worker is alive but silent, so its lock lapses and the unit is re-run.
    frozen.kill('SIGSTOP');
    await client.waitFor(sweep.id);
    const job = await count.getJob('n14-d8');
    expect(job?.stalledCounter).toBe(1);
    const firstDelivery = (await client.store.units(14, 8)).get('*');
    expect(pidOfWorkerName(firstDelivery?.worker)).not.toBe(frozenPid);

    // Thawed, it finishes its copy of the unit (its lock is gone, so BullMQ refuses its
    // completion): the unit has now been computed twice, with the same value.
    frozen.kill('SIGCONT');
    await until('the thawed worker to finish its copy', () =>
      said.some((s) => s.pid === frozenPid && s.msg === 'unit counted'),
    );
    expect(said.filter((s) => s.msg === 'unit counted').map((s) => s.pid)).toEqual([
      pidOfWorkerName(firstDelivery?.worker),
      frozenPid,
    ]);
    // The store keeps the first count: a second one with the same value is a duplicate, never
    // an overwrite (one with another value would be kept aside as a disagreement).
    const secondDelivery = (await client.store.units(14, 8)).get('*');
    expect(secondDelivery).toEqual(firstDelivery);
    expect(await client.store.disagreements()).toEqual([]);
    expect((await count.getJob('n14-d8'))?.returnvalue).toEqual(firstDelivery);

    // The C++ baseline's N(14, ·), not the kernel the workers ran.
    const N14 = baselineCounts(14);
    const [result] = await client.results([14]);
    expect(result).toEqual({ n: 14, S: KNOWN_S[13], N: N14 });
    expect((await client.store.record(14))?.S).toBe(KNOWN_S[13]);
  });

  it('counts a unit once when a second job for it joins the same N(n, D)', async () => {
    const { prefix, client, count, spawn } = faults.pipeline('twice');
    // No worker yet, so the duplicate joins while N(12, 9) still waits for its units.
    // A target small enough that N(12, 9) is split (the planner keeps wholes within 4× the
    // target); its unit 0's id names its plan.
    const { sweep } = await client.submit([12], { targetSeconds: 0.0003 });
    const queued = await count.getJobs(['prioritized', 'waiting']);
    const original = queued.find((j) => /^n12-d9-p[0-9a-f]{12}-u0$/.test(String(j.id)));
    expect(original).toBeDefined();
    const originalId = String(original?.id);
    await count.add(JOB_NAMES.unit, original?.data, {
      jobId: 'n12-d9-u0-again',
      parent: { id: 'n12-d9', queue: `${prefix}:${QUEUE_NAMES.aggregate}` },
    });
    spawn();
    spawn();
    await client.waitFor(sweep.id);

    const [result] = await client.results([12]);
    expect(result?.S).toBe(KNOWN_S[11]);
    expect(result?.N[9]).toBe(baselineN(12, 9));
    const depth = (await client.store.depths(12)).get(9);
    const planned = (await client.store.units(12, 9)).size;
    expect(depth?.units).toBe(planned);
    // Both jobs completed, with the same unit and value; the sum took it once.
    const jobs = await Promise.all([originalId, 'n12-d9-u0-again'].map((id) => count.getJob(id)));
    expect(
      await Promise.all(jobs.map((j) => (j ? j.getState() : Promise.resolve('missing')))),
    ).toEqual(['completed', 'completed']);
    const [a, b] = jobs.map((j) => j?.returnvalue as UnitResult);
    expect([b?.unit, b?.value]).toEqual([a?.unit, a?.value]);
  });
});
