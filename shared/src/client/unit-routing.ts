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
  /**
   * A window transfer runs alone on its worker, on all its slots: it may use the worker's
   * whole memory. Transfers up to this many bytes fit every live worker that way (the
   * smallest live worker's memory) and go to `count`; none is planned above it (or above
   * `maxUnitBytes`, when a memory class is larger).
   */
  readonly transferBytes: number;
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
 * The memory a window transfer may use on this worker: all of the worker's (it runs alone, on
 * every slot), and never less than one slot's share.
 */
export function workerTransferBytes(worker: WorkerInfo): number {
  const memory = worker.memoryBytes ?? worker.concurrency * defaultSlotMemory();
  return Math.max(memory, workerSlotBytes(worker));
}

/** How large a window transfer may be: the producer's cap, and the worker planned for. */
export interface TransferRouting {
  /** The producer's cap on a transfer (WQ_MAX_UNIT_BYTES if set, else its worker memory). */
  readonly capBytes: number;
  /** The worker's memory planned for when none is live (this machine's default). */
  readonly fallbackBytes: number;
}

/**
 * Routing for these live workers, with units on one slot capped at `capBytes` (the producer's
 * WQ_MAX_UNIT_BYTES). With none live (or all alike) every unit goes to `count`: the usual
 * case adds no queue. `fallbackSlotBytes` is the slot planned for when none is live. Without
 * `transfer`, a window transfer is held to a slot like any unit.
 */
export function unitRouting(
  live: readonly WorkerInfo[],
  capBytes: number,
  fallbackSlotBytes: number,
  transfer?: TransferRouting,
): UnitRouting {
  if (live.length === 0) {
    const slot = Math.min(capBytes, fallbackSlotBytes);
    const whole = transfer ? Math.min(transfer.capBytes, transfer.fallbackBytes) : slot;
    return {
      baseUnitBytes: slot,
      maxUnitBytes: slot,
      largestSlotBytes: 0,
      transferBytes: Math.max(slot, whole),
    };
  }
  const slots = live.map(workerSlotBytes);
  const largest = Math.max(...slots);
  const base = Math.min(capBytes, Math.min(...slots));
  const max = Math.min(capBytes, Math.max(base, largestClassWithin(largest)));
  const whole = transfer ? Math.min(transfer.capBytes, ...live.map(workerTransferBytes)) : base;
  return {
    baseUnitBytes: base,
    maxUnitBytes: max,
    largestSlotBytes: largest,
    transferBytes: Math.max(base, whole),
  };
}
