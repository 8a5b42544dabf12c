// @weak-queens/shared: the counting kernel (pure functions over numbers) and the contracts
// every package agrees on.
export {
  WeakQueensError,
  InvalidInputError,
  NotApplicableError,
  MAX_ECHO_CHARS,
  truncate,
} from './errors.js';
export { parseNSpec } from './n-spec.js';
export {
  MAX_N,
  assertBoard,
  assertLegalPrefix,
  assertLegalUnit,
  middleStart,
} from './kernel/board.js';
export type { ProgressCallback } from './kernel/progress.js';
export {
  ALGORITHMS,
  ALGORITHM_CHOICES,
  type Algorithm,
  type AlgorithmChoice,
  type CostEstimate,
  parseAlgorithm,
  countCompletions,
  estimateCost,
  chooseAlgorithm,
  DEFAULT_MAX_BYTES,
} from './kernel/algorithms.js';
export {
  type WorkUnit,
  type PlanOptions,
  DEFAULT_MAX_UNITS,
  planUnits,
  countUnit,
  countPlacements,
} from './kernel/plan.js';
export { classicCount, uniqueCount, listBoards, formatBoard } from './kernel/classic.js';
export { countByDfs } from './kernel/bitmask-dfs.js';
export { countByWindowTransfer } from './kernel/window-transfer.js';
export {
  countByWindowTransferParallel,
  type ParallelTransferOptions,
  MAX_TEAM_THREADS,
} from './kernel/window-transfer-parallel.js';
export { countBySeedDp } from './kernel/seed-dp.js';
export { estimateTree } from './kernel/estimate.js';
export {
  type UnitRows,
  centreRows,
  symmetryScheme,
  topUnits,
  unitWeight,
} from './kernel/symmetry.js';
export * from './contracts/index.js';
