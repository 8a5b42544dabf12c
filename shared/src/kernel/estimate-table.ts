// The seeded estimates of every small board, worked out once at build time
// (build/estimate-table.mjs writes dist/kernel/estimate-table.json from `probedEstimate`) and
// read here. The probes are seeded, so the table holds exactly the numbers they give; it saves
// a small sweep their cost in every process that plans or checks units (n ≤ 12: about 60 ms of
// the client's 0.25 s of CPU, and more in each worker). Without the file (run from source, or a
// build without it) every estimate is probed as before.
import { readFileSync } from 'node:fs';

/** Boards up to this size are in the table: `npm start`'s sweep 1..14 and the tests' sizes. */
export const TABLE_MAX_N = 14;

/** One (n, D) of the table; see the probes in algorithms.ts for what each is. */
export interface TabledEstimate {
  /** Levels 0 … D of the n-queens tree (the transfer's windows are level D). */
  readonly windowLevels: readonly number[];
  /** The whole-board DFS's seconds by the pilot's probes. */
  readonly pilotSeconds: number;
  /** … and by the whole-board estimate (the pilot's where it is below the bound for a full run). */
  readonly wholeSeconds: number;
}

/** The file's shape: one entry per (n, D), n ≤ TABLE_MAX_N, in ascending n then D. */
export interface EstimateTableFile {
  readonly maxN: number;
  readonly entries: readonly (TabledEstimate & { readonly n: number; readonly depth: number })[];
}

export const ESTIMATE_TABLE_FILE = 'estimate-table.json';

/**
 * Boards up to this size have their top-level DFS units' estimates in a table of their own
 * (the planner probes them when it weighs spreading a small sweep's longest (n, D) over every
 * slot: 5–10 ms of each small sweep's planning). Larger boards' units cost more to list than to
 * probe as needed.
 */
export const TOP_UNITS_MAX_N = 12;
export const TOP_UNITS_FILE = 'top-units-table.json';

/** One top-level unit of the DFS with its seeded estimate (see topUnitEstimates). */
export interface TabledTopUnit {
  readonly prefix: readonly number[];
  readonly middle: readonly number[];
  readonly weight: 1 | 2 | 4;
  readonly seconds: number;
}

/** The file's shape: per (n ≤ TOP_UNITS_MAX_N, D) in ascending n then D, its top-level units. */
export interface TopUnitsTableFile {
  readonly maxN: number;
  readonly entries: readonly {
    readonly n: number;
    readonly depth: number;
    readonly units: readonly TabledTopUnit[];
  }[];
}

let table: Map<number, TabledEstimate> | null | undefined;
let topUnitsTable: Map<number, readonly TabledTopUnit[]> | null | undefined;

/** The tabled estimates of (n, D), or undefined when n is past the table or there is no table. */
export function tabledEstimate(n: number, depth: number): TabledEstimate | undefined {
  if (n > TABLE_MAX_N) return undefined;
  table ??= readTable();
  return table?.get(n * 64 + depth);
}

/** The tabled top-level units of (n, D) with their estimates, or undefined (probe them). */
export function tabledTopUnits(n: number, depth: number): readonly TabledTopUnit[] | undefined {
  if (n > TOP_UNITS_MAX_N) return undefined;
  topUnitsTable ??= readTopUnitsTable();
  return topUnitsTable?.get(n * 64 + depth);
}

function readTable(): Map<number, TabledEstimate> | null {
  const file = readJson<EstimateTableFile>(ESTIMATE_TABLE_FILE);
  // A table from another build's bounds is not this one's: probed instead.
  if (file?.maxN !== TABLE_MAX_N) return null;
  return new Map(file.entries.map((e) => [e.n * 64 + e.depth, e]));
}

function readTopUnitsTable(): Map<number, readonly TabledTopUnit[]> | null {
  const file = readJson<TopUnitsTableFile>(TOP_UNITS_FILE);
  if (file?.maxN !== TOP_UNITS_MAX_N) return null;
  return new Map(file.entries.map((e) => [e.n * 64 + e.depth, e.units]));
}

/** A table file beside this module, or undefined when there is none (run from source). */
function readJson<File>(name: string): File | undefined {
  try {
    return JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')) as File;
  } catch {
    return undefined;
  }
}
