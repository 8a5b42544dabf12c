// @weak-queens/shared/kernel: the counting kernel, pure functions over numbers. It imports only
// itself and node: built-ins (a lint rule and a test keep it so), so a kernel thread or
// `wq compute` never loads a Redis client or a logger.
export {
  HandBackError,
  InvalidInputError,
  KernelError,
  MAX_ECHO_CHARS,
  truncate,
  WeakQueensError,
} from './errors.js';
export { collectFully } from './full-collection.js';
export { MAX_N, assertBoard, assertLegalPrefix, assertLegalUnit, middleStart } from './board.js';
export type { ProgressCallback } from './progress.js';
export {
  ALGORITHMS,
  ALGORITHM_CHOICES,
  type Algorithm,
  type AlgorithmChoice,
  type CostEstimate,
  parseAlgorithm,
  countCompletions,
  estimateCost,
  estimateBytes,
  estimateTransferWindows,
  estimateCheckTransferBytes,
  PLANNED_TRANSFER_WINDOWS,
  chooseAlgorithm,
  type ChoiceOptions,
  AUTO_CANDIDATES,
  DEFAULT_SLOT_MEMORY_BYTES,
} from './algorithms.js';
export {
  type WorkUnit,
  type PlanOptions,
  DEFAULT_MAX_UNITS,
  planUnits,
  countUnit,
  countPlacements,
} from './plan.js';
export { classicCount, uniqueCount, listBoards, formatBoard } from './classic.js';
export {
  type ClassicEngine,
  type ClassicMethod,
  type ClassicTotals,
  type ClassicUnit,
  CLASSIC_ENGINES,
  CLASSIC_METHODS,
  WHOLE_BOARD,
  classicTotals,
  classicUnitKey,
  classicUnits,
  countClassicUnit,
  parseClassicUnitKey,
} from './classic-units.js';
export { type ClassicRun, ClassicThreads } from './classic-threads.js';
export { type ClassicWasm, classicWasm } from './classic-wasm.js';
export { countByDfs } from './bitmask-dfs.js';
export { type DfsWasm, dfsWasm } from './bitmask-dfs-wasm.js';
export {
  CHECK_MEET_SHIFT,
  countByWindowTransfer,
  MAX_TRANSFER_PARTS,
  type TransferPart,
} from './window-transfer.js';
export {
  countByWindowTransferParallel,
  type ParallelTransferOptions,
  MAX_TEAM_THREADS,
} from './window-transfer-parallel.js';
export { countBySeedDp } from './seed-dp.js';
export { estimateTree } from './estimate.js';
export { type UnitRows, centreRows, symmetryScheme, topUnits, unitWeight } from './symmetry.js';
export {
  KernelPool,
  type KernelPoolOptions,
  type KernelRun,
  WHOLE_MACHINE_BYTES,
  WHOLE_MACHINE_SECONDS,
} from './kernel-pool.js';
