// Which units go to `count` and how large a unit may be planned, from the live workers' memory.
import type { WorkerInfo } from './sweep-registry.js';
import { defaultSlotMemory, largestClassWithin } from '../contracts/index.js';

/** What routing needs to know of the live workers. */
export interface UnitRouting {
  /** Units up to this many bytes fit every live worker's slot: they go to `count`. */
  readonly baseUnitBytes: number;
  /**
   * No unit is planned above this: the largest live slot, or, above the base, the largest
   * memory class it holds (a unit goes to its class queue, which only a worker holding the
   * whole class consumes).
   */
  readonly maxUnitBytes: number;
  /** The largest per-slot memory among the live workers (0: none live). */
  readonly largestSlotBytes: number;
}

/**
 * The largest unit a worker takes per slot: its heartbeat's `slotBytes`, or for a worker from
 * before it, its memory shared among its slots.
 */
export function workerSlotBytes(worker: WorkerInfo): number {
  if (worker.slotBytes !== undefined) return worker.slotBytes;
  const memory = worker.memoryBytes ?? worker.concurrency * defaultSlotMemory();
  return Math.floor(memory / Math.max(1, worker.concurrency));
}

/**
 * Routing for these live workers, with units capped at `capBytes` (the producer's
 * WQ_MAX_UNIT_BYTES). With none live (or all alike) every unit goes to `count`: the usual
 * case adds no queue. `fallbackSlotBytes` is the slot planned for when none is live.
 */
export function unitRouting(
  live: readonly WorkerInfo[],
  capBytes: number,
  fallbackSlotBytes: number,
): UnitRouting {
  if (live.length === 0) {
    const slot = Math.min(capBytes, fallbackSlotBytes);
    return { baseUnitBytes: slot, maxUnitBytes: slot, largestSlotBytes: 0 };
  }
  const slots = live.map(workerSlotBytes);
  const largest = Math.max(...slots);
  const base = Math.min(capBytes, Math.min(...slots));
  const max = Math.min(capBytes, Math.max(base, largestClassWithin(largest)));
  return { baseUnitBytes: base, maxUnitBytes: max, largestSlotBytes: largest };
}
