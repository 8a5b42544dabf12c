// Which units go to `count` and how large a unit may be planned, from the live workers' memory.
import type { WorkerInfo } from './sweep-registry.js';
import { largestClassWithin, type MemoryBudget, memoryBudget } from '../contracts/index.js';

/** What routing needs to know of the live workers. */
export interface UnitRouting {
  /** Units up to this many bytes fit every live worker's slot: they go to `count`. */
  readonly baseUnitBytes: number;
  /**
   * The slot memory planned for: no unit is planned above this, the largest live slot or,
   * above the base, the largest memory class it holds (a unit goes to its class queue, which
   * only a worker holding the whole class consumes).
   */
  readonly slotMemoryBytes: number;
  /** The largest slot memory among the live workers (0: none live). */
  readonly largestSlotBytes: number;
  /**
   * The worker memory planned for: a window transfer runs alone on its worker, on all its
   * slots, so it may use the worker's whole memory. Transfers up to this many bytes fit every
   * live worker that way (the smallest live worker's memory) and go to `count`; none is
   * planned above it (or above `slotMemoryBytes`, when a memory class is larger).
   */
  readonly workerMemoryBytes: number;
}

/**
 * The memory a worker's heartbeat advertises (`slotBytes` and `memoryBytes`: its slot and
 * worker memory), a transfer never below one slot's. A worker from before heartbeats carried
 * them is taken as one with this machine's defaults for its slots.
 */
export function advertisedMemory(worker: WorkerInfo): MemoryBudget {
  const slots = Math.max(1, worker.concurrency);
  const fallback = () => memoryBudget({ slots });
  const workerMemoryBytes = worker.memoryBytes ?? fallback().workerMemoryBytes;
  const slotMemoryBytes = worker.slotBytes ?? Math.floor(workerMemoryBytes / slots);
  return { slotMemoryBytes, workerMemoryBytes: Math.max(workerMemoryBytes, slotMemoryBytes) };
}

/**
 * Routing for these live workers, never above `own` (the producer's slot and worker memory,
 * from its configuration: what a worker started here would take). With none live (or all
 * alike) every unit goes to `count`: the usual case adds no queue, and `own` is planned for.
 */
export function unitRouting(live: readonly WorkerInfo[], own: MemoryBudget): UnitRouting {
  if (live.length === 0) {
    const slot = own.slotMemoryBytes;
    return {
      baseUnitBytes: slot,
      slotMemoryBytes: slot,
      largestSlotBytes: 0,
      workerMemoryBytes: Math.max(slot, own.workerMemoryBytes),
    };
  }
  const budgets = live.map(advertisedMemory);
  const slots = budgets.map((b) => b.slotMemoryBytes);
  const largest = Math.max(...slots);
  const base = Math.min(own.slotMemoryBytes, Math.min(...slots));
  const max = Math.min(own.slotMemoryBytes, Math.max(base, largestClassWithin(largest)));
  const whole = Math.min(own.workerMemoryBytes, ...budgets.map((b) => b.workerMemoryBytes));
  return {
    baseUnitBytes: base,
    slotMemoryBytes: max,
    largestSlotBytes: largest,
    workerMemoryBytes: Math.max(base, whole),
  };
}
