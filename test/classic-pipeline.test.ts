// The classic problem on the pipeline: Q(n) and the classes under the 8 symmetries from units
// counted by two real worker processes, one of them killed with SIGKILL mid-sweep; a weak
// sweep in the same queues at the same time keeps its own ids, keys and exact S(n).
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLASSIC_QUEENS,
  classicSumJobId,
  classicUnitJobId,
  knownSums,
  UNIQUE_QUEENS,
} from '@weak-queens/shared/contracts';
import { batchUnits, sampleUnits } from '@weak-queens/shared/client';
import { classicUnitKey, classicUnits } from '@weak-queens/shared/kernel';
import {
  killHard,
  openFaultPipeline,
  pidOfWorkerName,
  startTestRedis,
  stopWorkers,
  type TestRedis,
  until,
} from './src/index.js';
import { runWq } from './src/wq-cli.js';

describe('when a classic sweep runs on two workers and one is killed with SIGKILL', () => {
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

  it('publishes the exact Q(n) and unique counts, a sample checked by the other method', async () => {
    const { client, count, spawn, close } = openFaultPipeline(redis.url, 'classic', workers);
    cleanups.push(close);
    const first = spawn();
    spawn();
    // Both live before any unit runs, so every second count has another worker to go to.
    await until(
      'both workers to be live',
      async () => (await client.registry.liveWorkers()).length === 2,
    );
    const ns = [8, 12, 16];
    const submission = await client.submitClassic(ns, { verify: true, sample: 6 });
    expect(submission.sizes.map((s) => s.outcome)).toEqual(['added', 'added', 'added']);
    // Planned for the two live slots: the units of Q(16) not counted twice go in batches.
    const keys16 = classicUnits(16).map(classicUnitKey);
    const sampled = new Set(sampleUnits(keys16, 6));
    const jobs16 = batchUnits(classicUnits(16), 2, (u) => sampled.has(classicUnitKey(u)));
    expect(jobs16.length).toBeLessThan(keys16.length / 3);
    expect(submission.sizes[2]?.jobs).toBe(1 + jobs16.length + 6);
    // A weak sweep on the same queues at the same time.
    await client.submit([8]);

    // Kill whichever worker holds a job of Q(16) first: its unfinished units run again
    // elsewhere. Two live workers make the units of Q(16) go in batches (jobs `c16-1.3+4`), so
    // this also kills a batch part way. Units take milliseconds, so the worker is frozen first
    // and killed only if its job still has units unfinished then (else it is thawed).
    let victim: ChildProcess | undefined;
    let victimKeys: string[] = [];
    await until('a job of Q(16) to be caught unfinished', async () => {
      for (const job of await count.getActive()) {
        const pid = pidOfWorkerName(job.processedBy);
        const id = String(job.id);
        const worker = workers.find((w) => w.pid === pid);
        if (!id.startsWith('c16-') || id.startsWith('c16-v-') || !worker?.pid) continue;
        process.kill(worker.pid, 'SIGSTOP');
        const data = job.data as { unit: string; batch?: string[] };
        const unfinished: string[] = [];
        for (const key of data.batch ?? [data.unit]) {
          if (!(await client.classic.unit(16, key))) unfinished.push(key);
        }
        if (unfinished.length === 0) {
          process.kill(worker.pid, 'SIGCONT');
          continue;
        }
        victim = worker;
        victimKeys = unfinished;
        return true;
      }
      return false;
    });
    await killHard(victim as ChildProcess);
    if (victim !== first) workers.splice(workers.indexOf(victim as ChildProcess), 1);
    spawn(); // a replacement, as a supervisor would start one

    const results = await client.waitForClassic(ns, { timeoutMs: 120_000 });
    for (const n of ns) {
      const result = results.get(n);
      expect(result?.Q).toBe(CLASSIC_QUEENS[n - 1]);
      expect(result?.unique).toBe(UNIQUE_QUEENS[n - 1]);
      expect(result?.units).toBe(classicUnits(n).length);
      expect(result?.checked).toBe(Math.min(6, classicUnits(n).length));
    }
    expect(results.get(16)).toMatchObject({ Q: '14772512', unique: '1846955' });

    // Every unit is stored once with its class; the killed one by a live worker.
    const units = await client.classic.units(16);
    expect([...units.keys()].sort()).toEqual(classicUnits(16).map(classicUnitKey).sort());
    const sum = [...units.values()].reduce((t, u) => t + BigInt(u.boards), 0n);
    expect(sum).toBe(14772512n);
    for (const key of victimKeys) {
      expect([key, units.get(key)?.worker.endsWith(`-${victim?.pid}`)]).toEqual([key, false]);
    }
    const checks = await client.classic.units(16, 'check');
    expect(checks.size).toBe(6);
    for (const [key, check] of checks) {
      expect(check.method).toBe('images');
      // Two live workers: a unit's two counts were made by two of them.
      expect([key, check.worker === units.get(key)?.worker]).toEqual([key, false]);
      expect(check.boards).toBe(units.get(key)?.boards);
      expect(check.classes).toBe(units.get(key)?.classes);
    }

    // Weak and classic jobs and results do not collide.
    expect(classicSumJobId(16)).toBe('c16');
    expect(classicUnitJobId(16, '3.7')).toBe('c16-3.7');
    expect(classicUnitJobId(16, '3.7', 'check')).toBe('c16-v-3.7');
    await until('S(8)', async () => (await client.store.sums([8])).has(8));
    expect((await client.store.sums([8])).get(8)).toBe(knownSums([8]).get(8));
    expect((await client.store.sums([12, 16])).size).toBe(0);

    // A second submission finds everything stored.
    const again = await client.submitClassic(ns, { verify: true, sample: 6 });
    expect(again.sizes.map((s) => s.outcome)).toEqual(['stored', 'stored', 'stored']);
  }, 120_000);

  it('runs wq sweep --problem classic --wait --json --verify and wq results --problem classic', async () => {
    const { prefix, spawn, close } = openFaultPipeline(redis.url, 'classic-cli', workers);
    cleanups.push(close);
    spawn();
    const env = { url: redis.url, prefix };
    const expected = [9, 10, 11]
      .map((n) => `{"n":${n},"Q":"${CLASSIC_QUEENS[n - 1]}","unique":"${UNIQUE_QUEENS[n - 1]}"}\n`)
      .join('');
    const sweep = await runWq(
      ['sweep', '9-11', '--problem', 'classic', '--wait', '--json', '--verify', '--sample', '3'],
      env,
    );
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toBe(expected);
    const results = await runWq(['results', '9-11', '--problem', 'classic', '--json'], env);
    expect(results.stdout).toBe(expected);
    const table = await runWq(['results', '10', '--problem', 'classic'], env);
    expect(classicUnits(10)).toHaveLength(29);
    expect(table.stdout).toBe(
      ' n  Q(n)  unique  units  checked  A000170 / A002562\n' +
        '10   724      92  29     3        agrees / agrees\n',
    );

    const exported = await runWq(['results', '9', '--problem', 'classic', '--export', '-'], env);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const units = classicUnits(9).length;
    expect(lines).toHaveLength(units + 3 + 1);
    expect(lines.every((l) => l.problem === 'classic')).toBe(true);
    expect(lines.filter((l) => l.role === 'check')).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({
      kind: 'classic',
      n: 9,
      Q: '352',
      unique: '46',
      checked: 3,
    });
    const boards = lines
      .filter((l) => l.kind === 'classic-unit' && l.role === undefined)
      .reduce((t, l) => t + BigInt(l.boards as string), 0n);
    expect(boards).toBe(352n);

    const bad = await runWq(['sweep', '9', '--problem', 'queens'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--problem');
    expect(bad.stderr).toContain('weak, classic');
  }, 60_000);

  it('follows a classic sweep in wq status, cancels it with wq cancel and finishes it with wq retry', async () => {
    const { client, prefix, spawn, close } = openFaultPipeline(redis.url, 'classic-ops', workers);
    cleanups.push(close);
    const env = { url: redis.url, prefix };
    const status = async (): Promise<StatusJson> => {
      const run = await runWq(['status', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as StatusJson;
    };
    // No worker yet: the sweep waits in the queues, where wq status sees it.
    const { sweepId } = await client.submitClassic([11, 12]);
    const units = (n: number): number => classicUnits(n).length;
    const queued = (await status()).sweeps.find((s) => s.sweep.id === sweepId);
    expect(queued?.sweep.problem).toBe('classic');
    expect(queued?.sizes).toEqual([
      { n: 11, state: 'queued', unitsDone: 0, units: units(11) },
      { n: 12, state: 'queued', unitsDone: 0, units: units(12) },
    ]);
    const table = await runWq(['status'], env);
    expect(table.stdout).toContain(`sweep ${sweepId}  classic`);
    expect(table.stdout).toContain(`n = 12  queued     0/${units(12)} units`);

    const cancel = await runWq(['cancel', sweepId], env);
    expect(cancel.stdout).toBe(`sweep ${sweepId}: cancelled n = 11, 12\n`);
    expect(cancel.code).toBe(0);
    expect(await client.jobTotal()).toBe(0);
    const cancelled = (await status()).sweeps.find((s) => s.sweep.id === sweepId);
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled?.sizes.map((s) => s.state)).toEqual(['cancelled', 'cancelled']);

    // Retry puts every job back (the units in the batches planned for this machine's slots,
    // none being live); a worker then finishes the sweep exactly.
    const cluster = await client.cluster();
    const jobs = (n: number): number =>
      batchUnits(classicUnits(n), cluster.workers * cluster.slots).length;
    const retry = await runWq(['retry', sweepId], env);
    expect(retry.stdout).toBe(`sweep ${sweepId}: ${jobs(11) + jobs(12) + 2} jobs added again\n`);
    spawn();
    await client.waitForClassic([11, 12], { timeoutMs: 60_000 });
    const done = (await status()).sweeps.find((s) => s.sweep.id === sweepId);
    expect(done?.status).toBe('done');
    expect(done?.sizes).toEqual([
      {
        n: 11,
        state: 'done',
        unitsDone: units(11),
        units: units(11),
        Q: CLASSIC_QUEENS[10],
        unique: UNIQUE_QUEENS[10],
      },
      {
        n: 12,
        state: 'done',
        unitsDone: units(12),
        units: units(12),
        Q: CLASSIC_QUEENS[11],
        unique: UNIQUE_QUEENS[11],
      },
    ]);
    expect((await runWq(['status'], env)).stdout).toContain(
      `n = 12  done       Q = ${CLASSIC_QUEENS[11]}  unique = ${UNIQUE_QUEENS[11]}`,
    );
    // Nothing is left to retry or replan: both add no jobs.
    expect((await runWq(['retry', sweepId], env)).stdout).toBe(
      `sweep ${sweepId}: 0 jobs added again\n`,
    );
    expect((await runWq(['replan', sweepId], env)).stdout).toContain(
      '0 jobs added (n=11 stored, n=12 stored)',
    );
  }, 90_000);
});

interface StatusJson {
  readonly sweeps: readonly {
    readonly sweep: { readonly id: string; readonly problem?: string };
    readonly status: string;
    readonly sizes: readonly Record<string, unknown>[];
  }[];
}
