// Build step: the seeded estimates of every board up to TABLE_MAX_N, probed once here and
// written to dist/kernel/estimate-table.json, which src/kernel/estimate-table.ts reads instead of
// probing them again in every process (see there). Runs after tsc, from dist/.
import { writeFileSync } from 'node:fs';
import { probedEstimate } from '../dist/kernel/algorithms.js';
import { ESTIMATE_TABLE_FILE, TABLE_MAX_N } from '../dist/kernel/estimate-table.js';

const entries = [];
for (let n = 1; n <= TABLE_MAX_N; n++) {
  for (let depth = 0; depth < n; depth++) entries.push({ n, depth, ...probedEstimate(n, depth) });
}
writeFileSync(
  new URL(`../dist/kernel/${ESTIMATE_TABLE_FILE}`, import.meta.url),
  JSON.stringify({ maxN: TABLE_MAX_N, entries }),
);
