// `wq compute` chooses algorithms within the memory a worker here would have (WQ_SLOT_MEMORY,
// WQ_WORKER_MEMORY), exactly as the sweep planner does, not within the kernel's own default.
import { describe, expect, it } from 'vitest';
import { planDepth } from '@weak-queens/shared/client';
import { estimateCost } from '@weak-queens/shared/kernel';
import { computeMemory, planSizes } from '../src/compute/compute-sizes.js';

const KiB = 1024;
const N = 12;

/** Per D, the algorithm `wq compute` plans with this environment on one thread. */
function computeChoice(env: Record<string, string>): string[] {
  const memory = computeMemory(1, env);
  const units = planSizes([N], { algorithm: 'auto', threads: 1, memory });
  return Array.from({ length: N }, (_, d) => units.find((u) => u.depth === d)?.algorithm ?? '');
}

/** Per D, the algorithm the sweep planner picks for a worker with this memory. */
function plannerChoice(slotMemoryBytes: number, workerMemoryBytes: number): string[] {
  const memory = { slotMemoryBytes, workerMemoryBytes, targetSeconds: 30 };
  return Array.from({ length: N }, (_, d) => planDepth(N, d, memory).algorithm);
}

describe('when wq compute runs with the worker memory set', () => {
  // The window transfer of N(12, 5) needs about 114 KiB, that of N(12, 4) about 22 KiB (from
  // D = 6 the DFS is estimated cheaper, whatever the memory).
  const transfer5 = estimateCost('window-transfer', N, 5, []).bytes;

  it('takes the variables as a worker of its threads would', () => {
    expect(computeMemory(1, { WQ_WORKER_MEMORY: '256KiB' })).toEqual({
      slotMemoryBytes: 256 * KiB,
      workerMemoryBytes: 256 * KiB,
    });
    expect(computeMemory(4, { WQ_WORKER_MEMORY: '256KiB' })).toEqual({
      slotMemoryBytes: 64 * KiB,
      workerMemoryBytes: 256 * KiB,
    });
  });

  it('counts a transfer that needs more than the worker memory with the DFS, as the planner would', () => {
    expect(transfer5).toBeGreaterThan(64 * KiB);
    const small = computeChoice({ WQ_WORKER_MEMORY: '64KiB' });
    expect(small).toEqual(plannerChoice(64 * KiB, 64 * KiB));
    expect(small[5]).toBe('dfs');
    expect(small[4]).toBe('window-transfer');
    // With room, the same (n, D) is the transfer's: the setting is what moved it.
    expect(computeChoice({ WQ_WORKER_MEMORY: '1MiB' })[5]).toBe('window-transfer');
  });

  it('lets a transfer use the whole worker memory, whatever the slot memory', () => {
    const env = { WQ_SLOT_MEMORY: '1KiB', WQ_WORKER_MEMORY: '1MiB' };
    const choice = computeChoice(env);
    expect(choice).toEqual(plannerChoice(KiB, 1024 * KiB));
    expect(choice[5]).toBe('window-transfer');
  });
});
