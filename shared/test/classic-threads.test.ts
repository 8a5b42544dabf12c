// ClassicThreads tells which of its threads counted each unit (the worker stores it as the unit's
// slot, the dashboard's timeline draws a lane per slot). Its threads load the built thread
// script, so the class comes from the build (the test task builds first).
import { afterEach, describe, expect, it } from 'vitest';
import { ClassicThreads } from '../dist/kernel/index.js';
import { classicUnits } from '../src/kernel/index.js';
import { CLASSIC_QUEENS, UNIQUE_QUEENS } from '../src/contracts/index.js';

let threads: ClassicThreads | undefined;
afterEach(async () => {
  await threads?.close();
  threads = undefined;
});

describe('when more units than threads are counted at once', () => {
  it('runs them on threads 0, 1 and 2 of three, each of them used, and no other', async () => {
    threads = new ClassicThreads(3);
    const pool = threads;
    const units = classicUnits(10);
    const runs = await Promise.all(units.map((unit) => pool.count(unit)));
    expect(runs).toHaveLength(29);
    expect([...new Set(runs.map((r) => r.slot))].sort()).toEqual([0, 1, 2]);
    expect(String(runs.reduce((t, r) => t + r.boards, 0n))).toBe(CLASSIC_QUEENS[9]);
    expect(String(runs.reduce((t, r) => t + r.classes, 0n))).toBe(UNIQUE_QUEENS[9]);
  });
});

describe('when units are counted one after another', () => {
  it('reuses thread 0 for every one of them', async () => {
    threads = new ClassicThreads(4);
    const slots: number[] = [];
    for (const unit of classicUnits(8)) slots.push((await threads.count(unit)).slot);
    expect(slots).toEqual(Array.from({ length: 16 }, () => 0));
  });
});

describe('when a batch of units is counted', () => {
  it('counts them in turn on one thread, handing over each as soon as it is done', async () => {
    threads = new ClassicThreads(2);
    const units = classicUnits(11);
    const runs: { index: number; slot: number; startedAt: number; seconds: number }[] = [];
    let boards = 0n;
    await threads.countEach(units, 'pruned', (index, run) => {
      runs.push({ index, slot: run.slot, startedAt: run.startedAt, seconds: run.seconds });
      boards += run.boards;
    });
    expect(runs.map((r) => r.index)).toEqual(units.map((_, i) => i));
    expect(new Set(runs.map((r) => r.slot)).size).toBe(1);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]?.startedAt).toBeGreaterThanOrEqual(runs[i - 1]?.startedAt ?? 0);
    }
    expect(runs.every((r) => r.seconds >= 0)).toBe(true);
    expect(String(boards)).toBe(CLASSIC_QUEENS[10]);
  });

  it('waits for the rest of the batch before failing with the first error it saw', async () => {
    threads = new ClassicThreads(1);
    const units = classicUnits(9);
    let seen = 0;
    const run = threads.countEach(units, 'pruned', (index) => {
      seen += 1;
      if (index === 2) throw new Error('the store said no');
    });
    await expect(run).rejects.toThrow('the store said no');
    expect(seen).toBe(units.length);
    // The thread is free again and answers the next request with its own units.
    expect((await threads.count(units[0] as (typeof units)[0])).boards).toBeGreaterThan(0n);
  });
});

describe('when Q(n) is counted as a whole', () => {
  it('still gives Q(12) = 14200 with 1787 classes on two threads', async () => {
    threads = new ClassicThreads(2);
    const totals = await threads.totals(12);
    expect(totals).toEqual({ boards: 14200n, classes: 1787n });
  });
});

/**
 * A thread that dies on the corner unit (first column 0) and counts one board, one class, for
 * any other: a crash on demand.
 */
const CRASHING_THREAD = new URL(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { parentPort } from 'node:worker_threads';
      parentPort.on('message', ({ units: [unit] }) => {
        if (unit.first === 0) process.exit(3);
        const done = { type: 'done', index: 0, boards: '1', classes: '1', startedAt: 0, seconds: 0 };
        parentPort.postMessage(done);
      });
    `),
);

describe('when a thread dies', () => {
  it('gives its index to the thread started in its place', async () => {
    threads = new ClassicThreads(2, CRASHING_THREAD);
    const pool = threads;
    const corner = { n: 8, first: 0, second: 2 };
    const other = { n: 8, first: 1, second: 3 };
    const [died, counted] = await Promise.allSettled([pool.count(corner), pool.count(other)]);
    expect(died).toMatchObject({
      status: 'rejected',
      reason: { message: 'classic thread exited with code 3' },
    });
    expect(counted).toEqual({
      status: 'fulfilled',
      value: { boards: 1n, classes: 1n, slot: 1, startedAt: 0, seconds: 0 },
    });
    // Thread 1 is idle; a second unit at once needs a new thread, which takes index 0 again.
    const runs = await Promise.all([pool.count(other), pool.count(other)]);
    expect(runs.map((r) => r.slot).sort()).toEqual([0, 1]);
  });
});

/** A thread that exits as soon as it starts. */
const EXITING_THREAD = new URL('data:text/javascript,' + encodeURIComponent(`process.exit(4);`));

describe('when the threads are started ahead of the first unit (warm)', () => {
  it('counts on them, and a thread that died while idle is never handed a unit', async () => {
    threads = new ClassicThreads(2);
    threads.warm();
    const totals = await threads.totals(10);
    expect(totals).toEqual({
      boards: BigInt(CLASSIC_QUEENS[9]!),
      classes: BigInt(UNIQUE_QUEENS[9]!),
    });
    await threads.close();

    threads = new ClassicThreads(1, EXITING_THREAD);
    threads.warm();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The dead thread is gone from the pool: the unit gets a fresh thread (which exits too).
    await expect(threads.count({ n: 8, first: 0, second: 2 })).rejects.toThrow(
      'classic thread exited with code 4',
    );
  });
});
