// How much memory a worker may use when nobody says (WQ_WORKER_MEMORY), and how much one unit
// on one slot may use (WQ_MAX_UNIT_BYTES). Units side by side on a worker's slots each get a
// quarter of the machine shared among its cores; a window transfer runs alone on its worker (on
// all its slots at once), so it may use the worker's whole memory: three quarters of the
// machine for a worker holding every core. The rest is left to Redis, the operating system and
// whatever else shares the machine. This is the one place these defaults are derived.
import { availableParallelism, totalmem } from 'node:os';

/** The share of the machine's memory the units side by side on it may use together. */
export const MACHINE_MEMORY_SHARE = 0.25;

/**
 * The share of the machine's memory its workers may use in all, for a unit that runs alone
 * on a worker: "a transfer that needs most of the machine gets the whole machine".
 */
export const WORKER_MEMORY_SHARE = 0.75;

/** One slot's share of this machine's memory (bytes). */
export function defaultSlotMemory(): number {
  return Math.floor((totalmem() * MACHINE_MEMORY_SHARE) / availableParallelism());
}

/**
 * The memory a worker with `slots` slots may use on this machine (bytes): its cores' share of
 * WORKER_MEMORY_SHARE. A worker on every core (the default) may use three quarters of the
 * machine for one unit on all its slots; several one-slot workers split that between them.
 */
export function defaultWorkerMemory(slots = availableParallelism()): number {
  return Math.floor((totalmem() * WORKER_MEMORY_SHARE * slots) / availableParallelism());
}
