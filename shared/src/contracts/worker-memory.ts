// How much memory a worker may use when nobody says (WQ_WORKER_MEMORY): a quarter of the
// machine, shared among its cores, times the worker's slots. The rest is left to Redis, the
// operating system and whatever else shares the machine; one slot's share is also the default
// cap on one unit's estimated memory (WQ_MAX_UNIT_BYTES).
import { availableParallelism, totalmem } from 'node:os';

/** The share of the machine's memory the workers on it may use together. */
export const MACHINE_MEMORY_SHARE = 0.25;

/** One slot's share of this machine's memory (bytes). */
export function defaultSlotMemory(): number {
  return Math.floor((totalmem() * MACHINE_MEMORY_SHARE) / availableParallelism());
}

/** The memory a worker with `slots` slots may use on this machine (bytes). */
export function defaultWorkerMemory(slots = availableParallelism()): number {
  return defaultSlotMemory() * slots;
}
