// The three counting algorithms behind one interface, their cost models, and the `auto` choice.
import { InvalidInputError } from './errors.js';
import { assertBoard, assertLegalUnit, fixedRows, middleStart } from './board.js';
import { countByDfs } from './bitmask-dfs.js';
import { estimateTree, estimateUnitTree } from './estimate.js';
import { type TabledEstimate, tabledEstimate, tabledTopUnits } from './estimate-table.js';
import { ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';
import { countBySeedDp } from './seed-dp.js';
import { topUnits, type UnitRows } from './symmetry.js';
import {
  assertTransferPart,
  CHECK_MEET_SHIFT,
  countByWindowTransfer,
  keepsPairedVector,
  LEVEL_BYTES_PER_NODE,
  MAX_TRANSFER_WINDOWS,
  TABLE_BYTES_PER_NODE,
  type TransferPart,
  type TransferShape,
  transferShape,
} from './window-transfer.js';

export const ALGORITHMS = ['seed-dp', 'window-transfer', 'dfs'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
export type AlgorithmChoice = Algorithm | 'auto';
export const ALGORITHM_CHOICES: readonly AlgorithmChoice[] = ['auto', ...ALGORITHMS];

export function parseAlgorithm(value: string): AlgorithmChoice {
  if ((ALGORITHM_CHOICES as readonly string[]).includes(value)) return value as AlgorithmChoice;
  throw new InvalidInputError('algorithm', value, `one of ${ALGORITHM_CHOICES.join(', ')}`);
}

/**
 * Counts the legal completions of a unit on an (n, D) board with one algorithm: `prefix` fixes
 * the first rows, or `middle` (optional, default none; DFS only) the rows from
 * `middleStart(n)` down. With neither, the DFS counts the whole N(n, D) through its symmetric
 * top-level units (the same ones `planUnits` makes). `part` (window transfer of a whole (n, D)
 * only) counts one part of it (see TransferPart). `mirrored` (DFS only) counts the unit's
 * left–right mirror image instead, every fixed column c as n − 1 − c (for a whole (n, D), every
 * top-level unit's image): the same count, by searches whose every mask differs from the
 * unit's own, which is how a verified sweep's second count by the DFS differs from its first.
 */
export function countCompletions(
  algorithm: Algorithm,
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
  middle: readonly number[] = [],
  part?: TransferPart,
  /** Window transfer only: meet this many rows past the middle (see transferShape). */
  meetShift = 0,
  mirrored = false,
): bigint {
  if (algorithm !== 'dfs') assertNoMiddle(algorithm, middle);
  if (part) assertPart(algorithm, part, prefix);
  if (mirrored && algorithm !== 'dfs') {
    throw new InvalidInputError(
      'mirrored',
      mirrored,
      `no mirror image with ${algorithm} (dfs only)`,
    );
  }
  switch (algorithm) {
    case 'dfs':
      if (depth === 0) {
        // No row sees another: n^rows, exact past 2^53 (the double-valued search refuses it).
        assertLegalUnit(n, depth, prefix, middle);
        return BigInt(n) ** BigInt(n - prefix.length - middle.length);
      }
      if (mirrored) {
        assertLegalUnit(n, depth, prefix, middle); // named as given, not as mirrored
        const image = (columns: readonly number[]): number[] => columns.map((c) => n - 1 - c);
        if (prefix.length === 0 && middle.length === 0) {
          return countWholeByDfs(n, depth, onProgress, image);
        }
        return countCompletions('dfs', n, depth, image(prefix), onProgress, image(middle));
      }
      if (prefix.length === 0 && middle.length === 0) {
        return countWholeByDfs(n, depth, onProgress, (columns) => columns);
      }
      return BigInt(countByDfs(n, depth, prefix, onProgress, middle));
    case 'window-transfer':
      return countByWindowTransfer(n, depth, prefix, onProgress, part, meetShift);
    case 'seed-dp':
      return countBySeedDp(n, depth, prefix, onProgress);
  }
}

function assertPart(algorithm: Algorithm, part: TransferPart, prefix: readonly number[]): void {
  if (algorithm !== 'window-transfer') {
    throw new InvalidInputError(
      'part',
      `${part.index}/${part.of}`,
      `no parts with ${algorithm} (window-transfer only)`,
    );
  }
  assertTransferPart(part, prefix.length);
}

function assertNoMiddle(algorithm: Algorithm, middle: readonly number[]): void {
  if (middle.length !== 0) {
    throw new InvalidInputError(
      'middle',
      middle,
      `no fixed middle rows with ${algorithm} (dfs only)`,
    );
  }
}

/**
 * N(n, D) by the DFS: Σ weight · count over the symmetric top-level units, in this thread, each
 * unit's fixed columns as `columns` maps them (its mirror image for a second count).
 */
function countWholeByDfs(
  n: number,
  depth: number,
  onProgress: ProgressCallback | undefined,
  columns: (fixed: readonly number[]) => readonly number[],
): bigint {
  assertBoard(n, depth);
  const units = topUnits(n, depth);
  let total = 0n;
  units.forEach((unit, i) => {
    const inner = onProgress && ((f: number) => onProgress((i + f) / units.length));
    const [prefix, middle] = [columns(unit.prefix), columns(unit.middle)];
    total += BigInt(unit.weight) * BigInt(countByDfs(n, depth, prefix, inner, middle));
    onProgress?.((i + 1) / units.length);
  });
  return total;
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
const COST_PER_OPERATION: Readonly<Record<Algorithm, number>> = {
  // Per search call (a partial board of at most n − 2 rows): 13 ns for the TypeScript search,
  // times 0.53, the WebAssembly build's CPU time over the TypeScript's on every top-level unit
  // of N(16, 12), N(17, 13) and N(17, 16) (docs/kernel.md); that build runs wherever it exists.
  dfs: 7e-9,
  'window-transfer': 20e-9, // per trie node built (see estimateCost for the transfer's mix)
  'seed-dp': 60e-9, // per generated successor (sort and merge included)
};

/**
 * Random probes per DFS unit estimate. A plan sums tens (even n) to hundreds (odd n: the
 * central block has three rows) of unit estimates, so each needs few probes; planning n = 17
 * stays well under a second per D.
 */
const UNIT_PROBES = 64;

/** Average successors per window; ordinary queens leave about two free columns mid-board. */
const SUCCESSORS_PER_WINDOW = 2.5;

/**
 * Estimates the cost of counting the completions of a unit (`prefix`, and for the DFS an
 * optional `middle`, as in `countCompletions`) with `algorithm`. For the DFS with neither it is
 * the whole N(n, D) through the symmetric top-level units, as `countCompletions` counts it.
 */
export function estimateCost(
  algorithm: Algorithm,
  n: number,
  depth: number,
  prefix: readonly number[],
  middle: readonly number[] = [],
  part?: TransferPart,
): CostEstimate {
  assertBoard(n, depth);
  if (algorithm !== 'dfs') assertNoMiddle(algorithm, middle);
  if (part) assertPart(algorithm, part, prefix);
  const remainingRows = n - prefix.length - middle.length;
  if (depth === 0) {
    // Closed under the transfer view (one empty window); the DFS counts n^rows as a product,
    // but only within 2^53, so it keeps the enumeration's cost and no planner prefers it.
    const leaves = n ** remainingRows;
    return algorithm === 'dfs'
      ? { seconds: (leaves / n) * COST_PER_OPERATION.dfs, bytes: 0 }
      : { seconds: remainingRows * 1e-7, bytes: 0 };
  }
  if (algorithm === 'dfs') {
    if (prefix.length === 0 && middle.length === 0) {
      const seconds =
        smallDfsSeconds(n, depth) ??
        topUnitEstimates(n, depth).reduce((sum, unit) => sum + unit.seconds, 0);
      return { seconds, bytes: dfsBytes(n) };
    }
    const rows = fixedRows(n, depth, prefix, middle);
    if (!(rows instanceof Int32Array)) {
      throw new InvalidInputError(
        rows.field,
        rows.field === 'prefix' ? prefix : middle,
        rows.allowed,
      );
    }
    const tree = estimateUnitTree(n, depth, rows, searchOrder(n, prefix, middle), UNIT_PROBES);
    return { seconds: tree.nodes * COST_PER_OPERATION.dfs, bytes: dfsBytes(n) };
  }
  const windowLevels = windowTreeLevels(n, depth);
  const windows = windowLevels[depth] ?? 0;
  if (algorithm === 'window-transfer') {
    const shape = transferShape(n, depth, prefix.length);
    const kept = windows / 2;
    const suffixes = windowLevels[depth - 1] ?? 0;
    let upper = 0; // trie levels built before level D−1
    for (let k = 0; k + 1 < depth; k++) upper += windowLevels[k] ?? 0;
    const bytes = transferPeakBytes(windowLevels, depth, shape);
    // Building and pairing the reversals read level D−1 at random (about 16 sequential
    // operations' worth per node); a step reads and writes every kept window as a stream.
    const perStep = shape.counts === 'residues' ? new ResidueSystem(n).size : 1;
    // The final pairing is about a quarter of the 16 (measured at N(17, 8)); a part pairs
    // only its share of level D−1.
    const unpaired = part ? 4 * suffixes * (1 - 1 / part.of) : 0;
    const operations =
      upper + windows + 16 * suffixes - unpaired + 0.5 * kept * shape.steps * perStep;
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

/**
 * The estimated peak bytes of `estimateCost` alone. The DFS's do not depend on the unit, so
 * they cost nothing here, where its seconds take random probes of every top-level unit (a
 * worker checks a unit's memory before it counts it: for a small whole N(n, D) the probes
 * took longer than the count).
 */
export function estimateBytes(...unit: Parameters<typeof estimateCost>): number {
  const [algorithm, n, depth, prefix, , part] = unit;
  // D = 0 is closed form for every algorithm, as cheap as this.
  if (algorithm !== 'dfs' || depth === 0) return estimateCost(...unit).bytes;
  assertBoard(n, depth);
  if (part) assertPart(algorithm, part, prefix);
  return dfsBytes(n);
}

/** The DFS keeps a few words per row, whatever the unit. */
function dfsBytes(n: number): number {
  return 64 * n;
}

/**
 * Peak bytes of a window transfer: the larger of the build's peak and the steps'. Generating
 * level D−1 holds the table's arrays, level D−2's build arrays and level D−3's nodes (nothing
 * above, see buildWindowTable); the team's build adds a first-child index per node once the
 * levels above are dropped. The steps hold the table and two count vectors. Level sizes are
 * the random-probe estimates, taken ESTIMATE_MARGIN high so that the planner's cap stays an
 * upper bound of the measured peak.
 */
function transferPeakBytes(levels: ArrayLike<number>, depth: number, shape: TransferShape): number {
  const level = (k: number): number => (k >= 0 ? (levels[k] ?? 0) : 0);
  // One count vector over the kept half of the windows; a shifted meeting row keeps a third.
  const vectorBytes = (level(depth) / 2) * shape.countBytes * (keepsPairedVector(shape) ? 1.5 : 1);
  const table = level(depth - 1) * TABLE_BYTES_PER_NODE;
  const build = Math.max(
    table + level(depth - 2) * LEVEL_BYTES_PER_NODE + level(depth - 3) * 8,
    table + level(depth - 1) * 4,
  );
  return ESTIMATE_MARGIN * Math.max(build, table + 2 * vectorBytes);
}

/**
 * The peak bytes of a whole (n, D) counted by the transfer met CHECK_MEET_SHIFT rows past the
 * middle, as a verified sweep's second count runs it: its longer vector takes more steps, so its
 * cells may be wider (N(19, 10): 9^6 > 2^16, 8-byte cells for 1.5e9 windows), and it keeps the
 * vector it pairs with as a third.
 */
export function estimateCheckTransferBytes(n: number, depth: number): number {
  assertBoard(n, depth);
  if (depth === 0) return 0;
  return transferPeakBytes(
    windowTreeLevels(n, depth),
    depth,
    transferShape(n, depth, 0, CHECK_MEET_SHIFT),
  );
}

/** How far above its level-size estimates a transfer's byte estimate stays (see above). */
const ESTIMATE_MARGIN = 1.05;

/**
 * The DFS's top-level units of (n, D) with their estimates, worked out once per (n, D): a plan
 * asks for them several times (the choice, the split, a cluster plan's two passes), and the
 * estimates are seeded, so the same every time. Cleared past MAX_MEMO entries.
 */
export function topUnitEstimates(
  n: number,
  depth: number,
): readonly (UnitRows & { readonly seconds: number })[] {
  return memoized(
    topUnitMemo,
    n,
    depth,
    () => tabledTopUnits(n, depth) ?? probedTopUnits(n, depth),
  );
}

/** The top-level units of (n, D) as their probes cost them (what the build's table holds). */
export function probedTopUnits(
  n: number,
  depth: number,
): readonly (UnitRows & { readonly seconds: number })[] {
  return topUnits(n, depth).map((u) => ({
    ...u,
    seconds: estimateCost('dfs', n, depth, u.prefix, u.middle).seconds,
  }));
}

/**
 * A whole (n, D) whose search is below this many estimated seconds is costed from one probe run
 * over the whole board, not from every top-level unit's: a sweep of n ≤ 12 has 2,797 top-level
 * units, and probing them all took 110 ms, longer than counting every N(n, D) (about 60 ms).
 * Nothing this small is worth splitting into jobs (MIN_UNIT_SECONDS in plan.ts).
 */
const SMALL_DFS_SECONDS = 0.05;

/**
 * The DFS searches each top-level unit (a central block and its mirror images, up to four) once,
 * from the middle out. Probing the whole board in that order and dividing by four lands within
 * 0.85–1.16 of the units' summed estimates for every (6 ≤ n ≤ 17, 1 ≤ D < n) at 512 probes
 * (0.67 once at 128), at the cost of one unit's probes instead of thousands.
 */
const MIRROR_IMAGES = 4;
const WHOLE_BOARD_PROBES = 512;

/**
 * The whole-board DFS estimate starts with a pilot of this many probes, an eighth of the full
 * run. Where the pilot finds the search below PILOT_ENOUGH_DFS_SECONDS (a tenth of what is
 * ever split), it is the estimate: its error cannot change a plan, and the full runs for every
 * (n, D) of a sweep of n ≤ 12 were half its planning. Over every (n ≤ 21, D), the pilot is
 * within 0.73–1.39 of the full run, and no pilot under the bound was followed by a full run
 * over twice the bound. (The window tree keeps its 512 probes: memory estimates route units.)
 */
const PILOT_PROBES = 64;
const PILOT_ENOUGH_DFS_SECONDS = 0.005;

/**
 * The whole-(n, D) DFS's seconds from one probe run over the whole board, once per (n, D) (for
 * a small board, read from the table built from `probedEstimate`).
 */
function wholeBoardDfsSeconds(n: number, depth: number): number {
  return memoized(
    wholeBoardMemo,
    n,
    depth,
    () =>
      tabledEstimate(n, depth)?.wholeSeconds ??
      probedWholeBoardSeconds(n, depth, wholeBoardPilotSeconds(n, depth)),
  );
}

function probedWholeBoardSeconds(n: number, depth: number, pilot: number): number {
  return pilot < PILOT_ENOUGH_DFS_SECONDS
    ? pilot
    : wholeBoardProbeSeconds(n, depth, WHOLE_BOARD_PROBES);
}

function wholeBoardPilotSeconds(n: number, depth: number): number {
  return memoized(
    wholeBoardPilotMemo,
    n,
    depth,
    () => tabledEstimate(n, depth)?.pilotSeconds ?? wholeBoardProbeSeconds(n, depth, PILOT_PROBES),
  );
}

/**
 * The seeded estimates of (n, D) that the table keeps, probed (never read from the table):
 * what build/estimate-table.mjs writes, and what a test compares the table with.
 */
export function probedEstimate(n: number, depth: number): TabledEstimate {
  assertBoard(n, depth);
  const pilotSeconds = wholeBoardProbeSeconds(n, depth, PILOT_PROBES);
  return {
    windowLevels: [...probedWindowLevels(n, depth)],
    pilotSeconds,
    wholeSeconds: probedWholeBoardSeconds(n, depth, pilotSeconds),
  };
}

function wholeBoardProbeSeconds(n: number, depth: number, probes: number): number {
  // The DFS's order with no row fixed: down from the middle row, then up.
  const order = rowsOutFrom(n, middleStart(n), middleStart(n));
  const tree = estimateUnitTree(n, depth, new Int32Array(n).fill(-1), order, probes);
  return (tree.nodes / MIRROR_IMAGES) * COST_PER_OPERATION.dfs;
}

/**
 * The whole-(n, D) DFS's seconds when they are below SMALL_DFS_SECONDS, else undefined (then
 * topUnitEstimates costs it, unit by unit, as a plan that splits it needs).
 */
export function smallDfsSeconds(n: number, depth: number): number | undefined {
  const seconds = wholeBoardDfsSeconds(n, depth);
  return seconds < SMALL_DFS_SECONDS ? seconds : undefined;
}

/**
 * Seconds the whole-(n, D) DFS surely takes at least: half the full whole-board estimate, which
 * a quarter of the pilot stays below (see PILOT_PROBES), so that the choice needs no full run
 * where the DFS cannot win.
 */
function dfsSecondsAtLeast(n: number, depth: number): number {
  return wholeBoardPilotSeconds(n, depth) / 4;
}

// The per-(n, D) estimates, each kept by `memoized` (the window tree's map is with it below).
const wholeBoardMemo = new Map<number, number>();
const wholeBoardPilotMemo = new Map<number, number>();
const topUnitMemo = new Map<number, readonly (UnitRows & { readonly seconds: number })[]>();

const MAX_MEMO = 256;

/**
 * Per (n, D), worked out once and kept: the estimates are seeded, so the same every time. A map
 * is cleared past MAX_MEMO entries (a long-lived process plans many boards).
 */
function memoized<T>(memo: Map<number, T>, n: number, depth: number, compute: () => T): T {
  const key = n * 64 + depth;
  let value = memo.get(key);
  if (value === undefined) {
    value = compute();
    if (memo.size >= MAX_MEMO) memo.clear();
    memo.set(key, value);
  }
  return value;
}

/**
 * Windows are ordinary-queens placements of D rows: levels 0 … D of the n-queens tree, probed
 * once per (n, D) like topUnitEstimates. The sweep guard, the choice of every (n, D), the
 * cluster plan and a worker checking each transfer unit's memory all ask for them.
 */
function windowTreeLevels(n: number, depth: number): Readonly<Float64Array> {
  return memoized(windowLevelMemo, n, depth, () => {
    const tabled = tabledEstimate(n, depth)?.windowLevels;
    return tabled ? Float64Array.from(tabled) : probedWindowLevels(n, depth);
  });
}

function probedWindowLevels(n: number, depth: number): Float64Array {
  return estimateTree(n, n - 1, [], 512, depth).levels;
}

const windowLevelMemo = new Map<number, Float64Array>();

/** The windows of (n, D)'s transfer table, as the probes estimate them. */
export function estimateTransferWindows(n: number, depth: number): number {
  return windowTreeLevels(n, depth)[depth] ?? 0;
}

/** The windows the chooser plans a transfer with: a tenth below the limit, for the probes' error. */
export const PLANNED_TRANSFER_WINDOWS = 0.9 * MAX_TRANSFER_WINDOWS;

/**
 * Whether the transfer's table stays within MAX_TRANSFER_WINDOWS, with a tenth to spare for the
 * probes' error (the build refuses a larger one after all, but only once it has built it).
 */
function transferWithinWindowLimit(n: number, depth: number): boolean {
  return estimateTransferWindows(n, depth) <= PLANNED_TRANSFER_WINDOWS;
}

/** The free rows in the order the DFS fills them: down from the fixed run, then up. */
function searchOrder(n: number, prefix: readonly number[], middle: readonly number[]): number[] {
  const from = middle.length > 0 ? middleStart(n) : 0;
  return rowsOutFrom(n, from, from + (middle.length > 0 ? middle.length : prefix.length));
}

/** Rows `next` … n − 1, then `from` − 1 down to 0: a search's order around a fixed run. */
function rowsOutFrom(n: number, from: number, next: number): number[] {
  const order: number[] = [];
  for (let row = next; row < n; row++) order.push(row);
  for (let row = from - 1; row >= 0; row--) order.push(row);
  return order;
}

export interface ChoiceOptions {
  /**
   * Slot memory: the largest estimated peak memory an algorithm may use on one slot (default
   * DEFAULT_SLOT_MEMORY_BYTES). The DFS always fits.
   */
  readonly slotMemoryBytes?: number;
  /**
   * Worker memory: the window transfer runs alone on all its worker's slots, so it may use
   * this rather than one slot's. Default: `slotMemoryBytes`.
   */
  readonly workerMemoryBytes?: number;
  /** The algorithms to choose from; default AUTO_CANDIDATES. */
  readonly candidates?: readonly Algorithm[];
  /** Multiplies an algorithm's estimated seconds (a cluster's calibration); default 1. */
  readonly secondsScale?: (algorithm: Algorithm) => number;
  /** The choice when no candidate fits in memory; default the DFS. */
  readonly fallback?: Algorithm;
}

/**
 * The slot memory of a kernel call given none (tests, benchmarks). Every role passes the budget
 * contracts/worker-memory.ts derives from its configuration and machine instead: the kernel
 * knows nothing of either.
 */
export const DEFAULT_SLOT_MEMORY_BYTES = 1024 ** 3;

/** What `auto` chooses from: the seed's sorted merge is the reference and never wins on time. */
export const AUTO_CANDIDATES: readonly Algorithm[] = ['window-transfer', 'dfs'];

/**
 * The one algorithm chooser (`auto`, the sweep planner, a verified sweep's second count): the
 * candidate with the lowest (scaled) estimated time among those that fit in memory, the first
 * listed on a tie; the fallback when none fits. The estimate returned is the kernel's, unscaled.
 */
export function chooseAlgorithm(
  n: number,
  depth: number,
  options: ChoiceOptions = {},
): { algorithm: Algorithm; estimate: CostEstimate } {
  const slotMemoryBytes = options.slotMemoryBytes ?? DEFAULT_SLOT_MEMORY_BYTES;
  let best: { algorithm: Algorithm; estimate: CostEstimate; seconds: number } | undefined;
  for (const algorithm of options.candidates ?? AUTO_CANDIDATES) {
    const scale = options.secondsScale?.(algorithm) ?? 1;
    // Probing every top-level unit costs more than a small board's whole count: skipped when
    // the DFS cannot win (a transfer at small D is cheaper by orders of magnitude).
    if (algorithm === 'dfs' && best && dfsSecondsAtLeast(n, depth) * scale >= best.seconds) {
      continue;
    }
    const estimate = estimateCost(algorithm, n, depth, []);
    // The DFS's memory does not grow with the board; the others build whole tables.
    const cap =
      algorithm === 'window-transfer'
        ? (options.workerMemoryBytes ?? slotMemoryBytes)
        : slotMemoryBytes;
    if (algorithm !== 'dfs' && estimate.bytes > cap) continue;
    if (algorithm === 'window-transfer' && !transferWithinWindowLimit(n, depth)) continue;
    const seconds = estimate.seconds * scale;
    if (!best || seconds < best.seconds) best = { algorithm, estimate, seconds };
  }
  if (best) return { algorithm: best.algorithm, estimate: best.estimate };
  const fallback = options.fallback ?? 'dfs';
  return { algorithm: fallback, estimate: estimateCost(fallback, n, depth, []) };
}
