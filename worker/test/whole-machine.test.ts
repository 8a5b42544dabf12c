// A big window-transfer unit on every slot of the kernel pool: exact, reported, and stoppable.
// The pool runs built threads, so these tests use the build (the test task builds first).
import { readFileSync } from 'node:fs';
import {
  countByWindowTransfer,
  HandBackError,
  KernelError,
  KernelPool,
  type KernelRun,
  type WorkUnit,
} from '@weak-queens/shared/kernel';
import { afterEach, describe, expect, it } from 'vitest';

const transfer = (n: number, depth: number, seconds = 100): WorkUnit => ({
  n,
  depth,
  algorithm: 'window-transfer',
  prefix: [],
  middle: [],
  weight: 1,
  estimate: { seconds, bytes: 0 },
});

/** The OS threads of this process (Linux). */
const threads = (): number =>
  Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

/**
 * How long a joined thread may still be counted. A thread wakes its joiner when it clears its
 * tid, a little before the kernel unlinks it from the process: under load /proc can show one
 * more thread for a moment after terminate() has resolved (CI saw 12 for 11, once).
 */
const THREADS_GONE = { timeout: 2000, interval: 20 };

const pools: KernelPool[] = [];
const pool = (size: number): KernelPool => {
  const p = new KernelPool(size);
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Resolves at the unit's first progress report after the table: its team is at work. */
const started = (): { onProgress: (f: number) => void; working: Promise<void> } => {
  let mark = (): void => undefined;
  const working = new Promise<void>((resolve) => (mark = resolve));
  return { onProgress: (f) => f > 0 && mark(), working };
};

describe('when a big window-transfer unit arrives', () => {
  it('runs it on every slot, with the count of one thread, and reports progress up to 1', async () => {
    const kernel = pool(3);
    expect(kernel.usesWholeMachine(transfer(13, 6))).toBe(true);
    expect(kernel.usesWholeMachine(transfer(13, 6, 1))).toBe(false);
    expect(kernel.usesWholeMachine({ ...transfer(13, 6), algorithm: 'dfs' })).toBe(false);
    const fractions: number[] = [];
    const { value, slot } = await kernel.run(transfer(13, 6), (f) => fractions.push(f));
    expect(slot).toBe(0);
    expect(value).toBe(countByWindowTransfer(13, 6, []));
    expect(value).toBe(200335722n);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('lets the running units drain first, and the units arriving after it wait for it', async () => {
    const kernel = pool(2);
    const order: string[] = [];
    const small = (depth: number): WorkUnit => ({ ...transfer(10, depth, 0.1) });
    const first = kernel
      .run(small(4), () => undefined)
      .then((r) => (order.push('small 1'), r.value));
    const big = kernel
      .run(transfer(14, 7), () => undefined)
      .then((r) => (order.push('big'), r.value));
    const after = kernel
      .run(small(5), () => undefined)
      .then((r) => (order.push('small 2'), r.value));
    expect(await Promise.all([first, big, after])).toEqual([
      countByWindowTransfer(10, 4, []),
      countByWindowTransfer(14, 7, []),
      countByWindowTransfer(10, 5, []),
    ]);
    expect(order).toEqual(['small 1', 'big', 'small 2']);
  });
});

describe('when the worker hands a whole-machine unit back', () => {
  it('rejects it with HandBackError and leaves no thread of its team running', async () => {
    const before = threads();
    const kernel = pool(2);
    const { onProgress, working } = started();
    const failure = (p: Promise<KernelRun>): Promise<unknown> =>
      p.then(
        (r) => String(r.value),
        (err: unknown) => err,
      );
    const run = failure(kernel.run(transfer(15, 8), onProgress));
    const waiting = failure(kernel.run(transfer(9, 3, 0.1), () => undefined));
    await working;
    expect(threads()).toBeGreaterThanOrEqual(before + 2);
    await kernel.handBack();
    expect(await run).toBeInstanceOf(HandBackError);
    expect(await waiting).toBeInstanceOf(HandBackError);
    await expect.poll(threads, THREADS_GONE).toBe(before);
  });

  it('stops it at its work bound with a KernelError that no retry can help', async () => {
    const before = threads();
    const kernel = pool(2);
    const run = kernel.run(transfer(15, 8), () => undefined, { boundSeconds: 0.3 });
    await expect(run).rejects.toThrow(/ran past its work bound of 0.3 s/);
    await expect(run).rejects.toMatchObject({ retryable: false });
    await expect(run).rejects.toBeInstanceOf(KernelError);
    await expect.poll(threads, THREADS_GONE).toBe(before);
  });
});
