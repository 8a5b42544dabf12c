// Cost estimates without doing the work: Knuth's random-probe estimator of search-tree size.
// A probe walks one random path from the root and multiplies the branching factors it meets;
// the average over probes is an unbiased estimate of every level's size. Seeded, so the same
// question always gets the same answer (plans are reproducible across machines).
import { attackedBy, fullMask, popcount } from './board.js';

export interface TreeEstimate {
  /** Estimated number of nodes per level: levels[k] = boards with k rows placed (below the prefix). */
  readonly levels: Float64Array;
  /** Estimated total nodes below the prefix (the DFS's calls). */
  readonly nodes: number;
}

/**
 * Estimates the search tree of (n, D) boards extending `prefix`. With `depth` ≥ n−1 it is the
 * ordinary n-queens tree, whose level D is the number of windows of the transfer matrix.
 */
export function estimateTree(
  n: number,
  depth: number,
  prefix: readonly number[],
  probes = 256,
  maxRows = n,
): TreeEstimate {
  const full = fullMask(n);
  const levels = new Float64Array(maxRows + 1);
  const queens = new Int32Array(n);
  prefix.forEach((c, r) => (queens[r] = c));
  const random = seededRandom(n, depth, prefix);
  for (let p = 0; p < probes; p++) {
    let weight = 1;
    levels[prefix.length] = (levels[prefix.length] ?? 0) + 1;
    for (let row = prefix.length; row < maxRows; row++) {
      let blocked = 0;
      for (let d = 1; d <= depth && d <= row; d++) {
        const a = queens[row - d] ?? 0;
        blocked |= 1 << a;
        if (a + d < n) blocked |= 1 << (a + d);
        if (a - d >= 0) blocked |= 1 << (a - d);
      }
      let free = ~blocked & full;
      const options = popcount(free);
      if (options === 0) break;
      weight *= options;
      levels[row + 1] = (levels[row + 1] ?? 0) + weight;
      let pick = Math.floor(random() * options);
      while (pick-- > 0) free &= free - 1;
      queens[row] = 31 - Math.clz32(free & -free);
    }
  }
  let nodes = 0;
  for (let k = 0; k < levels.length; k++) {
    levels[k] = (levels[k] ?? 0) / probes;
    if (k >= prefix.length && k < n) nodes += levels[k] ?? 0;
  }
  return { levels, nodes };
}

/** Numbers in [0, 1) seeded by the unit, so an estimate of the same unit is always the same. */
function seededRandom(n: number, depth: number, prefix: Iterable<number>): () => number {
  let h = 0x9e3779b9 ^ (n * 73856093) ^ (depth * 19349663);
  for (const c of prefix) h = Math.imul(h ^ (c + 1), 0x85ebca6b) ^ (h >>> 13);
  let seed = h === 0 ? 1 : h;
  return () => {
    // xorshift32: fast, deterministic, good enough to pick branches.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
}

/**
 * Estimates the DFS tree of a unit whose fixed rows are `rows` (a column per row, −1 where
 * free), searched in `order` (the free rows, first searched first). levels[k] counts partial
 * boards with k rows placed, the fixed ones included; nodes counts the search's calls.
 */
export function estimateUnitTree(
  n: number,
  depth: number,
  rows: Int32Array,
  order: readonly number[],
  probes = 128,
): TreeEstimate {
  const full = fullMask(n);
  const fixed = n - order.length;
  const levels = new Float64Array(n + 1);
  // Each row's attacked columns, kept up to date as queens are placed: a row's free columns
  // are then one read, and the fixed rows' attacks are worked out once, not once per probe.
  const fixedAttacks = new Int32Array(n);
  for (let row = 0; row < n; row++) {
    const column = rows[row] ?? -1;
    if (column >= 0) addAttacks(fixedAttacks, n, depth, row, column);
  }
  const attacked = new Int32Array(n);
  const random = seededRandom(n, depth, rows);
  for (let p = 0; p < probes; p++) {
    attacked.set(fixedAttacks);
    let weight = 1;
    levels[fixed] = (levels[fixed] ?? 0) + 1;
    for (let k = 0; k < order.length; k++) {
      const row = order[k] ?? 0;
      let free = ~(attacked[row] ?? 0) & full;
      const options = popcount(free);
      if (options === 0) break;
      weight *= options;
      levels[fixed + k + 1] = (levels[fixed + k + 1] ?? 0) + weight;
      let pick = Math.floor(random() * options);
      while (pick-- > 0) free &= free - 1;
      // Attacks reach both ways here: the search grows a run of rows down, then up. The last
      // row's would reach only rows already placed.
      if (k + 1 < order.length) addAttacks(attacked, n, depth, row, 31 - Math.clz32(free & -free));
    }
  }
  // The search calls itself once per partial board with up to n − 2 rows placed; the last two
  // rows cost a few popcounts per call.
  let nodes = 0;
  for (let k = 0; k <= n; k++) {
    levels[k] = (levels[k] ?? 0) / probes;
    if (k >= fixed && k < n - 1) nodes += levels[k] ?? 0;
  }
  return { levels, nodes };
}

/** Marks the columns a queen at (row, column) attacks in the rows within `depth` of it. */
function addAttacks(
  attacked: Int32Array,
  n: number,
  depth: number,
  row: number,
  column: number,
): void {
  const reach = Math.min(depth, Math.max(row, n - 1 - row));
  for (let d = 1; d <= reach; d++) {
    const mask = attackedBy(n, column, d);
    if (row - d >= 0) attacked[row - d] = (attacked[row - d] ?? 0) | mask;
    if (row + d < n) attacked[row + d] = (attacked[row + d] ?? 0) | mask;
  }
}
