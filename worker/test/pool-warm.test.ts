// The kernel pool's warm-up: every slot's thread started before the first real unit, which then
// counts exactly as on a cold pool. The pool runs built threads (the test task builds first).
import { readFileSync } from 'node:fs';
import { KernelPool, planUnits } from '@weak-queens/shared/kernel';
import { afterEach, describe, expect, it } from 'vitest';

/** The OS threads of this process (Linux). */
const threads = (): number =>
  Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

const pools: KernelPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('when a pool is warmed up', () => {
  it('has started a thread per slot, and counts the next unit exactly', async () => {
    const before = threads();
    const pool = new KernelPool(2);
    pools.push(pool);
    await pool.warm();
    // Each kernel thread is a few OS threads (its own V8 helpers): at least one per slot.
    expect(threads()).toBeGreaterThanOrEqual(before + 2);
    const [unit] = planUnits(10, 4, { algorithm: 'window-transfer' });
    if (!unit) throw new Error('no unit');
    const run = await pool.run(unit, () => undefined);
    expect(run.value).toBe(774762n);
  });

  it('counts a unit asked for during the warm-up exactly, and the warm-up then ends', async () => {
    const pool = new KernelPool(2);
    pools.push(pool);
    const warming = pool.warm();
    const [unit] = planUnits(10, 4, { algorithm: 'window-transfer' });
    if (!unit) throw new Error('no unit');
    const run = await pool.run(unit, () => undefined);
    expect(run.value).toBe(774762n);
    // And the warm-up still ends, without the pool being closed.
    await expect(warming).resolves.toBeUndefined();
  });

  it('ends quietly when the pool closes meanwhile', async () => {
    const pool = new KernelPool(1);
    const warming = pool.warm();
    await pool.close();
    await expect(warming).resolves.toBeUndefined();
  });
});
