// Build step: the seeded estimates of every board up to TABLE_MAX_N, probed once here and
// written to dist/kernel/estimate-table.json, and the top-level DFS units of every board up to
// TOP_UNITS_MAX_N with theirs to dist/kernel/top-units-table.json, which
// src/kernel/estimate-table.ts reads instead of probing them again in every process (see there).
// Runs after tsc, from dist/; a last build's tables are removed first, so none is probed from.
import { rmSync, writeFileSync } from 'node:fs';
import { probedEstimate, probedTopUnits } from '../dist/kernel/algorithms.js';
import {
  ESTIMATE_TABLE_FILE,
  TABLE_MAX_N,
  TOP_UNITS_FILE,
  TOP_UNITS_MAX_N,
} from '../dist/kernel/estimate-table.js';

for (const file of [ESTIMATE_TABLE_FILE, TOP_UNITS_FILE]) {
  rmSync(new URL(`../dist/kernel/${file}`, import.meta.url), { force: true });
}

const entries = [];
for (let n = 1; n <= TABLE_MAX_N; n++) {
  for (let depth = 0; depth < n; depth++) entries.push({ n, depth, ...probedEstimate(n, depth) });
}
writeFileSync(
  new URL(`../dist/kernel/${ESTIMATE_TABLE_FILE}`, import.meta.url),
  JSON.stringify({ maxN: TABLE_MAX_N, entries }),
);

const topUnits = [];
for (let n = 1; n <= TOP_UNITS_MAX_N; n++) {
  for (let depth = 0; depth < n; depth++) {
    topUnits.push({ n, depth, units: probedTopUnits(n, depth) });
  }
}
writeFileSync(
  new URL(`../dist/kernel/${TOP_UNITS_FILE}`, import.meta.url),
  JSON.stringify({ maxN: TOP_UNITS_MAX_N, entries: topUnits }),
);
