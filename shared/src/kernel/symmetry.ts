// The symmetries of N(n, D) and the top-level DFS units they leave. The left–right mirror M
// (column c ↔ n−1−c) and the reversal of the row order F both map legal boards to legal boards
// for every D, and so does MF. F maps the board's central block (rows n/2 − 1 and n/2 for even
// n, the middle three rows for odd n) onto itself, so a unit's *signature* is the columns of
// that block: F reverses them, M mirrors them. Boards whose block reads σ map one to one onto
// boards whose block reads gσ, so N(n, D) = Σ over canonical σ of |orbit(σ)| · count(σ), the
// canonical signature being the lexicographically smallest of its orbit.
//
// Why the centre and not the first and last rows: the DFS then starts from the block and grows
// one contiguous run of rows (down to the bottom, then up to the top), so every level of its
// tree is as large as the same level of the plain top-down tree, and the symmetry divides every
// level but the first two by four (the mirror alone divided by two). Fixing the first and the
// last row instead multiplies the middle levels by the last row's still-free columns: measured
// 1.2–2× slower than the mirror alone at n = 14, 15.
import { assertBoard, blockedInRow, fixedRows, fullMask } from './board.js';

/** The fixed rows of a top-level unit and how many boards each of its completions stands for. */
export interface UnitRows {
  readonly prefix: readonly number[];
  readonly middle: readonly number[];
  readonly weight: 1 | 2 | 4;
}

/** Rows in the central block: 2 for even n, 3 for odd n (its centre row is F's fixed row). */
export function centreRows(n: number): 2 | 3 {
  return n % 2 === 0 ? 2 : 3;
}

/**
 * Whether N(n, D) is split by the central block (`'centre'`) or only by the mirror
 * (`'mirror'`: first-row columns in the left half, doubled). D = 0 needs no search and boards
 * below 4×4 have no block with rows on both sides, so both keep the mirror.
 */
export function symmetryScheme(n: number, depth: number): 'centre' | 'mirror' {
  return depth >= 1 && n >= 4 ? 'centre' : 'mirror';
}

/** The top-level units of N(n, D) under `symmetryScheme`, in lexicographic order. */
export function topUnits(n: number, depth: number): UnitRows[] {
  assertBoard(n, depth);
  if (symmetryScheme(n, depth) === 'mirror') return mirrorUnits(n);
  const units: UnitRows[] = [];
  for (const block of consecutiveRows(n, depth, centreRows(n))) {
    const weight = orbitWeight(n, block);
    if (weight !== 0) units.push({ prefix: [], middle: block, weight });
  }
  return units;
}

/**
 * The weight a unit with these fixed rows carries in the plans `planUnits` makes for (n, D):
 * the size of its signature's orbit, or 0 when the unit belongs to no such plan (rows that are
 * not legal, a signature that is not canonical, or a shape the scheme for (n, D) never makes).
 * Units split further by fixing more rows keep their signature's weight. The whole board (no
 * fixed rows, as the dynamic programs plan it) weighs 1.
 */
export function unitWeight(
  n: number,
  depth: number,
  prefix: readonly number[],
  middle: readonly number[],
): 0 | 1 | 2 | 4 {
  assertBoard(n, depth);
  if (!(fixedRows(n, depth, prefix, middle) instanceof Int32Array)) return 0;
  if (prefix.length === 0 && middle.length === 0) return 1;
  if (symmetryScheme(n, depth) === 'mirror') {
    if (middle.length !== 0) return 0;
    const twice = 2 * (prefix[0] ?? 0) + 1; // 2c + 1 against n: left half, middle, right half
    return twice < n ? 2 : twice === n ? 1 : 0;
  }
  const block = centreRows(n);
  if (prefix.length !== 0 || middle.length < block) return 0;
  return orbitWeight(n, middle.slice(0, block));
}

/** First-row columns in the left half stand for their mirror images too; the middle one does not. */
function mirrorUnits(n: number): UnitRows[] {
  const units: UnitRows[] = [];
  for (let c = 0; 2 * c + 1 < n; c++) units.push({ prefix: [c], middle: [], weight: 2 });
  if (n % 2 === 1) units.push({ prefix: [(n - 1) / 2], middle: [], weight: 1 });
  return units;
}

/** Every legal placement of k consecutive rows, in lexicographic order. */
function consecutiveRows(n: number, depth: number, k: number): number[][] {
  const out: number[][] = [];
  const rows: number[] = [];
  const extend = (): void => {
    if (rows.length === k) {
      out.push([...rows]);
      return;
    }
    const free = ~blockedInRow(n, depth, rows, rows.length) & fullMask(n);
    for (let c = 0; c < n; c++) {
      if (!(free & (1 << c))) continue;
      rows.push(c);
      extend();
      rows.pop();
    }
  };
  extend();
  return out;
}

/**
 * |orbit(block)| when the block is the smallest of its orbit, else 0. The orbit has
 * 4 / |stabiliser| members: 4, or 2 when one of F, M, MF fixes the block, or 1 when all do.
 */
function orbitWeight(n: number, block: readonly number[]): 0 | 1 | 2 | 4 {
  const mirrored = block.map((c) => n - 1 - c);
  const images = [[...block].reverse(), mirrored, [...mirrored].reverse()]; // F, M, MF
  let fixedBy = 1; // the identity
  for (const image of images) {
    const order = compare(image, block);
    if (order < 0) return 0;
    if (order === 0) fixedBy++;
  }
  return fixedBy === 1 ? 4 : fixedBy === 2 ? 2 : 1;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
