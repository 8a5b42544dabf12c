// How much memory a worker may use when nobody says (WQ_WORKER_MEMORY), and how much one unit
// on one slot may use (WQ_MAX_UNIT_BYTES). Units side by side on a worker's slots each get a
// quarter of the machine shared among its cores; a window transfer runs alone on its worker (on
// all its slots at once), so it may use the worker's whole memory: three quarters of the
// machine for a worker holding every core. The rest is left to Redis, the operating system and
// whatever else shares the machine. This is the one place these defaults are derived.
//
// In a container with limits (its cgroup) the container is the machine: its memory limit is
// the worker's whole memory, and its slots (WQ_CONCURRENCY's default) are the whole CPUs of its
// CPU quota, not the host's totals that os.totalmem and os.availableParallelism report.
import { availableParallelism, totalmem } from 'node:os';
import { type CgroupLimits, readCgroupLimits } from './cgroup-limits.js';

/** The share of the machine's memory the units side by side on it may use together. */
export const MACHINE_MEMORY_SHARE = 0.25;

/**
 * The share of the machine's memory its workers may use in all, for a unit that runs alone
 * on a worker: "a transfer that needs most of the machine gets the whole machine".
 */
export const WORKER_MEMORY_SHARE = 0.75;

let ownLimits: CgroupLimits | undefined;

/** This process's cgroup limits (read once: they do not change under a running process). */
export function containerLimits(): CgroupLimits {
  ownLimits ??= readCgroupLimits();
  return ownLimits;
}

/** The memory limit that binds: one at or above the machine's memory is no limit. */
function memoryLimit(limits: CgroupLimits): number | undefined {
  const { memoryBytes } = limits;
  return memoryBytes !== undefined && memoryBytes < totalmem() ? memoryBytes : undefined;
}

/** Units one worker runs at once by default: the cores, or the whole CPUs of its quota (≥ 1). */
export function defaultSlots(limits: CgroupLimits = containerLimits()): number {
  const cores = availableParallelism();
  if (limits.cpus === undefined) return cores;
  return Math.max(1, Math.min(cores, Math.floor(limits.cpus)));
}

/** One slot's share of this machine's memory, or of this container's limit (bytes). */
export function defaultSlotMemory(limits: CgroupLimits = containerLimits()): number {
  const limit = memoryLimit(limits);
  if (limit !== undefined) return Math.floor(limit / defaultSlots(limits));
  return Math.floor((totalmem() * MACHINE_MEMORY_SHARE) / availableParallelism());
}

/**
 * The memory a worker with `slots` slots may use on this machine (bytes): its cores' share of
 * WORKER_MEMORY_SHARE. A worker on every core (the default) may use three quarters of the
 * machine for one unit on all its slots; several one-slot workers split that between them.
 * In a container with a memory limit: that limit, whatever its slots.
 */
export function defaultWorkerMemory(
  slots: number = defaultSlots(),
  limits: CgroupLimits = containerLimits(),
): number {
  const limit = memoryLimit(limits);
  if (limit !== undefined) return limit;
  return Math.floor((totalmem() * WORKER_MEMORY_SHARE * slots) / availableParallelism());
}
