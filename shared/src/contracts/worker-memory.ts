// The memory a worker's units may use, derived in this one place for the planner, the worker
// and `wq compute` alike. Two ideas, because a worker runs units in two ways:
// - slot memory (WQ_SLOT_MEMORY, `slotMemoryBytes`): what one unit on one slot may use. Units
//   run side by side, one per slot, so together they get a quarter of the machine shared among
//   its cores.
// - worker memory (WQ_WORKER_MEMORY, `workerMemoryBytes`): what a unit that runs alone on all of
//   a worker's slots may use (a window transfer: a team of threads on one table): its cores'
//   share of three quarters of the machine. The rest is left to Redis, the operating system
//   and whatever else shares the machine.
// A slot never gets more than its share of the worker's memory.
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

/** What a worker's units may use (bytes); see the top of this file for why there are two. */
export interface MemoryBudget {
  /** The most one unit on one slot may be estimated to need. */
  readonly slotMemoryBytes: number;
  /** The most a unit alone on all the worker's slots (a window transfer) may need. */
  readonly workerMemoryBytes: number;
}

/** What was set (WQ_SLOT_MEMORY, WQ_WORKER_MEMORY, or flags); unset means the default. */
export interface MemorySettings {
  /** Units one worker runs at once (WQ_CONCURRENCY). */
  readonly slots: number;
  readonly slotMemoryBytes?: number;
  readonly workerMemoryBytes?: number;
  /**
   * WQ_MAX_UNIT_BYTES, deprecated: "no unit above this", a window transfer included. Read only
   * when WQ_SLOT_MEMORY is unset; it is then the slot memory, and caps the worker memory too.
   */
  readonly maxUnitBytes?: number;
}

/** The one derivation of slot and worker memory from what was set and this machine. */
export function memoryBudget(
  settings: MemorySettings,
  limits: CgroupLimits = containerLimits(),
): MemoryBudget {
  const legacy = settings.slotMemoryBytes === undefined ? settings.maxUnitBytes : undefined;
  const budget = withSlots(
    {
      workerMemoryBytes: settings.workerMemoryBytes ?? defaultWorkerMemory(settings.slots, limits),
      slotMemoryBytes: settings.slotMemoryBytes ?? legacy ?? defaultSlotMemory(limits),
    },
    settings.slots,
  );
  if (legacy === undefined) return budget;
  // WQ_MAX_UNIT_BYTES held every unit to it, a window transfer too; it never shrank a slot.
  const workerMemoryBytes = Math.max(
    budget.slotMemoryBytes,
    Math.min(budget.workerMemoryBytes, legacy),
  );
  return { ...budget, workerMemoryBytes };
}

/** The budget of a worker run with `slots` slots: no slot above its share of the worker. */
export function withSlots(budget: MemoryBudget, slots: number): MemoryBudget {
  return {
    workerMemoryBytes: budget.workerMemoryBytes,
    slotMemoryBytes: Math.min(budget.slotMemoryBytes, Math.floor(budget.workerMemoryBytes / slots)),
  };
}
