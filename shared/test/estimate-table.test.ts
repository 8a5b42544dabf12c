// The build's table of seeded estimates (dist/kernel/estimate-table.json) holds exactly what the
// probes give, for every board it covers, so that reading it changes no plan: the kernel built
// with it chooses and costs every (n ≤ TABLE_MAX_N, D) as the source, which has no table and
// probes, does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as built from '../dist/kernel/index.js';
import {
  chooseAlgorithm,
  estimateCost,
  estimateTransferWindows,
  planUnits,
} from '../src/kernel/index.js';
import { probedEstimate, probedTopUnits } from '../src/kernel/algorithms.js';
import {
  ESTIMATE_TABLE_FILE,
  type EstimateTableFile,
  TABLE_MAX_N,
  TOP_UNITS_FILE,
  TOP_UNITS_MAX_N,
  type TopUnitsTableFile,
} from '../src/kernel/estimate-table.js';

const table = JSON.parse(
  readFileSync(new URL(`../dist/kernel/${ESTIMATE_TABLE_FILE}`, import.meta.url), 'utf8'),
) as EstimateTableFile;

const topUnitsTable = JSON.parse(
  readFileSync(new URL(`../dist/kernel/${TOP_UNITS_FILE}`, import.meta.url), 'utf8'),
) as TopUnitsTableFile;

const boards: [number, number][] = [];
for (let n = 1; n <= TABLE_MAX_N; n++) for (let d = 0; d < n; d++) boards.push([n, d]);

describe('the estimate table', () => {
  it('covers every (n ≤ TABLE_MAX_N, D) once, in order', () => {
    expect(table.maxN).toBe(TABLE_MAX_N);
    expect(table.entries.map((e) => [e.n, e.depth])).toEqual(boards);
  });

  it('holds exactly the probed estimates', () => {
    for (const { n, depth, ...tabled } of table.entries) {
      expect({ n, depth, ...tabled }).toEqual({ n, depth, ...probedEstimate(n, depth) });
    }
  });

  it('changes no choice or cost: the build (with the table) agrees with the source (probes)', () => {
    for (const [n, d] of boards) {
      const label = `(${n}, ${d})`;
      expect(built.chooseAlgorithm(n, d), label).toEqual(chooseAlgorithm(n, d));
      expect(built.estimateTransferWindows(n, d), label).toBe(estimateTransferWindows(n, d));
      for (const algorithm of ['dfs', 'window-transfer'] as const) {
        expect(built.estimateCost(algorithm, n, d, []), label).toEqual(
          estimateCost(algorithm, n, d, []),
        );
      }
    }
  });
});

describe('the top-level units table', () => {
  const small = boards.filter(([n]) => n <= TOP_UNITS_MAX_N);

  it('covers every (n ≤ TOP_UNITS_MAX_N, D) once, in order, with exactly the probed units', () => {
    expect(topUnitsTable.maxN).toBe(TOP_UNITS_MAX_N);
    expect(topUnitsTable.entries.map((e) => [e.n, e.depth])).toEqual(small);
    for (const { n, depth, units } of topUnitsTable.entries) {
      expect(units, `(${n}, ${depth})`).toEqual(probedTopUnits(n, depth));
    }
  });

  it('changes no plan: the build splits every DFS (n, D) into the units the source does', () => {
    for (const [n, d] of small) {
      const options = { algorithm: 'dfs', targetSeconds: 1e-4, wholeDfs: false } as const;
      expect(built.planUnits(n, d, options), `(${n}, ${d})`).toEqual(planUnits(n, d, options));
    }
  });
});
