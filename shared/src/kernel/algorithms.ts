// The three counting algorithms behind one interface, their cost models, and the `auto` choice.
import { InvalidInputError } from '../errors.js';
import { assertBoard } from './board.js';
import { countByDfs } from './bitmask-dfs.js';
import { estimateTree } from './estimate.js';
import { ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';
import { countBySeedDp } from './seed-dp.js';
import { countByWindowTransfer, TABLE_BYTES_PER_NODE, transferShape } from './window-transfer.js';

export const ALGORITHMS = ['seed-dp', 'window-transfer', 'dfs'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export type AlgorithmChoice = Algorithm | 'auto';
export const ALGORITHM_CHOICES: readonly AlgorithmChoice[] = ['auto', ...ALGORITHMS];

export function parseAlgorithm(value: string): AlgorithmChoice {
  if ((ALGORITHM_CHOICES as readonly string[]).includes(value)) return value as AlgorithmChoice;
  throw new InvalidInputError('algorithm', value, `one of ${ALGORITHM_CHOICES.join(', ')}`);
}

/** Counts the legal completions of `prefix` on an (n, D) board with one algorithm. */
export function countCompletions(
  algorithm: Algorithm,
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
): bigint {
  switch (algorithm) {
    case 'dfs':
      return BigInt(countByDfs(n, depth, prefix, onProgress));
    case 'window-transfer':
      return countByWindowTransfer(n, depth, prefix, onProgress);
    case 'seed-dp':
      return countBySeedDp(n, depth, prefix, onProgress);
  }
}

/** Estimated single-core seconds and peak bytes of one computation. */
export interface CostEstimate {
  readonly seconds: number;
  readonly bytes: number;
}

/**
 * Seconds per elementary operation, measured on the development machine (2-core x86-64,
 * Node 20) with `npm run bench -- --calibrate`; only their ratios matter for the choice.
 */
export const COST_PER_OPERATION: Readonly<Record<Algorithm, number>> = {
  dfs: 10e-9, // per search call
  'window-transfer': 20e-9, // per trie node built (see estimateCost for the transfer's mix)
  'seed-dp': 60e-9, // per generated successor (sort and merge included)
};

/** Average successors per window; ordinary queens leave about two free columns mid-board. */
const SUCCESSORS_PER_WINDOW = 2.5;

/** Estimates the cost of counting the completions of `prefix` with `algorithm`. */
export function estimateCost(
  algorithm: Algorithm,
  n: number,
  depth: number,
  prefix: readonly number[],
): CostEstimate {
  assertBoard(n, depth);
  const remainingRows = n - prefix.length;
  if (depth === 0) {
    // Closed under the transfer view (one empty window); the DFS still enumerates n^rows leaves.
    const leaves = n ** remainingRows;
    return algorithm === 'dfs'
      ? { seconds: (leaves / n) * COST_PER_OPERATION.dfs, bytes: 0 }
      : { seconds: remainingRows * 1e-7, bytes: 0 };
  }
  if (algorithm === 'dfs') {
    const tree = estimateTree(n, depth, prefix, 128);
    return { seconds: tree.nodes * COST_PER_OPERATION.dfs, bytes: 64 * n };
  }
  // Windows are ordinary-queens placements of D rows: level D of the n-queens tree.
  const windowLevels = estimateTree(n, n - 1, [], 512, depth).levels;
  const windows = windowLevels[depth] ?? 0;
  if (algorithm === 'window-transfer') {
    const shape = transferShape(n, depth, prefix.length);
    const kept = windows / 2;
    const suffixes = windowLevels[depth - 1] ?? 0;
    let upper = 0; // trie levels built before level D−1
    for (let k = 0; k + 1 < depth; k++) upper += windowLevels[k] ?? 0;
    // An upper bound: every level's build arrays (29 B a node above level D−1; the table and
    // 4 B of temporaries at level D−1) still uncollected when the two count vectors exist.
    const bytes = upper * 29 + suffixes * (TABLE_BYTES_PER_NODE + 4) + 2 * kept * shape.countBytes;
    // Building and pairing the reversals read level D−1 at random (about 16 sequential
    // operations' worth per node); a step reads and writes every kept window as a stream.
    const perStep = shape.counts === 'residues' ? new ResidueSystem(n).size : 1;
    const operations = upper + windows + 16 * suffixes + 0.5 * kept * shape.steps * perStep;
    return { seconds: operations * COST_PER_OPERATION['window-transfer'], bytes };
  }
  // The seed's frontier is at most the windows; each row generates a few successors per state.
  const generated = windows * SUCCESSORS_PER_WINDOW;
  const residues = new ResidueSystem(n).size;
  return {
    seconds: generated * remainingRows * COST_PER_OPERATION['seed-dp'],
    bytes: generated * (4 * Math.ceil(depth / 8) + 4 * residues) * 3,
  };
}

export interface ChoiceOptions {
  /** Largest estimated peak memory an algorithm may use; default 1 GiB. */
  readonly maxBytes?: number;
}

export const DEFAULT_MAX_BYTES = 1024 ** 3;

/**
 * Picks the algorithm with the lowest estimated time among those that fit in memory. The DFS
 * always fits; the sorted-merge seed is the reference and never wins on time.
 */
export function chooseAlgorithm(
  n: number,
  depth: number,
  options: ChoiceOptions = {},
): { algorithm: Algorithm; estimate: CostEstimate } {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const dfs = estimateCost('dfs', n, depth, []);
  const transfer = estimateCost('window-transfer', n, depth, []);
  if (transfer.bytes <= maxBytes && transfer.seconds <= dfs.seconds) {
    return { algorithm: 'window-transfer', estimate: transfer };
  }
  return { algorithm: 'dfs', estimate: dfs };
}
