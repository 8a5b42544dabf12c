// kill -9 of a worker in the middle of a window transfer that runs on all its slots (the
// whole-machine path that S(18)'s D = 10 takes by default, by its memory): stall detection puts
// the unit back, another worker counts it from the start on all its slots, and the value is exact.
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ResultStore } from '@weak-queens/shared/client';
import { JOB_NAMES, planIdOf } from '@weak-queens/shared/contracts';
import {
  countByWindowTransfer,
  KernelPool,
  WHOLE_MACHINE_SECONDS,
  type WorkUnit,
} from '@weak-queens/shared/kernel';
import {
  faultPipelineFixture,
  FAST_STALLS,
  killHard,
  pidOfWorkerName,
  startWorker,
  until,
} from './src/index.js';

/**
 * N(16, 8) by the window transfer, one unit of a few seconds, whose planned estimate is set at
 * WHOLE_MACHINE_SECONDS: a two-slot worker runs it as a team on both slots, as it runs a
 * transfer that needs most of the machine's memory.
 */
const N = 16;
const D = 8;
const UNIT = {
  sweepId: 's-whole-machine',
  n: N,
  depth: D,
  algorithm: 'window-transfer',
  prefix: [],
  weight: 1,
  estimateSeconds: 2 * WHOLE_MACHINE_SECONDS,
  modelSeconds: 2 * WHOLE_MACHINE_SECONDS,
  bytes: 0,
  whole: true,
} as const;

/** Records the one-unit transfer plan of N(16, 8) (workers count only planned units). */
async function recordTransferPlan(url: string, prefix: string): Promise<string> {
  const header = {
    n: N,
    depth: D,
    role: 'primary',
    algorithm: 'window-transfer',
    units: 1,
  } as const;
  const planId = planIdOf(header, ['*']);
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await new ResultStore(redis, prefix).putPlan(
      header,
      planId,
      new Map([['*', { weight: 1, modelSeconds: UNIT.modelSeconds, boundSeconds: 600 }]]),
    );
  } finally {
    redis.disconnect();
  }
  return planId;
}

describe('when a worker is killed during a whole-machine transfer', () => {
  const faults = faultPipelineFixture();

  it('has another worker count it again from the start, and the value is exact', async () => {
    const { prefix, client, count } = faults.pipeline('whole-machine-kill');
    const spawn = (): ChildProcess => {
      const worker = startWorker({ url: faults.url, prefix, concurrency: 2, env: FAST_STALLS });
      faults.workers.push(worker);
      return worker;
    };
    // The planned unit is one a two-slot pool runs on both slots at once.
    const unit: WorkUnit = {
      ...UNIT,
      middle: [],
      estimate: { seconds: UNIT.estimateSeconds, bytes: UNIT.bytes },
    };
    const pool = new KernelPool(2);
    expect(pool.usesWholeMachine(unit)).toBe(true);
    await pool.close();

    const planId = await recordTransferPlan(faults.url, prefix);
    const job = await count.add(
      JOB_NAMES.unit,
      { ...UNIT, planId },
      { jobId: `n${N}-d${D}`, attempts: 3 },
    );
    spawn();
    spawn();
    let victimPid: number | undefined;
    await until('N(16, 8) to start on a worker', async () => {
      const current = await count.getJob(String(job.id));
      if ((await current?.getState()) !== 'active') return false;
      victimPid = pidOfWorkerName(current?.processedBy);
      return victimPid !== undefined;
    });
    // Its team at work for a moment (its threads started, its table being built).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const victim = faults.workers.find((w) => w.pid === victimPid);
    expect(victim, `a worker with pid ${victimPid}`).toBeDefined();
    await killHard(victim as ChildProcess);
    expect((await client.store.units(N, D)).size).toBe(0);

    await until(
      'N(16, 8) to be counted again after stall detection',
      async () => (await count.getJob(String(job.id)))?.finishedOn !== undefined,
      180_000,
    );
    const finished = await count.getJob(String(job.id));
    expect(finished?.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(await finished?.getState()).toBe('completed');
    // The value of an undisturbed count on one thread (the baseline's table stops at n = 14).
    const exact = countByWindowTransfer(N, D, []).toString();
    const stored = (await client.store.units(N, D)).get('*');
    expect(stored?.value).toBe(exact);
    expect(stored?.algorithm).toBe('window-transfer');
    expect(stored?.worker).not.toMatch(new RegExp(`-${victimPid}$`));
    // A team's run is drawn on slot 0 (kernel-pool.ts): the survivor ran it on all its slots.
    expect(stored?.slot).toBe(0);
    expect((await client.store.depths(N)).get(D)?.value).toBe(exact);
  }, 240_000);
});
