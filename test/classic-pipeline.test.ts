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
    const ns = [8, 12, 16];
    const submission = await client.submitClassic(ns, { verify: true, sample: 6 });
    expect(submission.sizes.map((s) => s.outcome)).toEqual(['added', 'added', 'added']);
    // A weak sweep on the same queues at the same time.
    await client.submit([8]);

    // Kill whichever worker holds a unit of Q(16) first: its unit runs again elsewhere.
    let victim: ChildProcess | undefined;
    let victimJob = '';
    await until('a unit of Q(16) to start', async () => {
      for (const job of await count.getActive()) {
        const pid = pidOfWorkerName(job.processedBy);
        if (!String(job.id).startsWith('c16-') || pid === undefined) continue;
        victim = workers.find((w) => w.pid === pid);
        victimJob = String(job.id);
        if (victim) return true;
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
    const killedKey = victimJob.slice('c16-'.length);
    expect(units.get(killedKey)?.worker.endsWith(`-${victim?.pid}`)).toBe(false);
    const checks = await client.classic.units(16, 'check');
    expect(checks.size).toBe(6);
    for (const [key, check] of checks) {
      expect(check.method).toBe('images');
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
});
