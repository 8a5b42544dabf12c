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

let table: Map<number, TabledEstimate> | null | undefined;

/** The tabled estimates of (n, D), or undefined when n is past the table or there is no table. */
export function tabledEstimate(n: number, depth: number): TabledEstimate | undefined {
  if (n > TABLE_MAX_N) return undefined;
  table ??= readTable();
  return table?.get(n * 64 + depth);
}

function readTable(): Map<number, TabledEstimate> | null {
  let file: EstimateTableFile;
  try {
    const text = readFileSync(new URL(`./${ESTIMATE_TABLE_FILE}`, import.meta.url), 'utf8');
    file = JSON.parse(text) as EstimateTableFile;
  } catch {
    return null;
  }
  // A table from another build's bounds is not this one's: probed instead.
  if (file.maxN !== TABLE_MAX_N) return null;
  return new Map(file.entries.map((e) => [e.n * 64 + e.depth, e]));
}
