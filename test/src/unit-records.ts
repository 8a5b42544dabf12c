// Snapshots of the unit records in the result store: each record names the worker process that
// computed it and how long it took, so an unchanged record proves the unit was not recomputed.
import type { ResultStore } from '@weak-queens/shared/client';
import { parseUnitKey, type UnitResult } from '@weak-queens/shared/contracts';
import { estimateCost } from '@weak-queens/shared/kernel';

/** Every stored unit of the given sizes, keyed `n/D/unit`. */
export async function unitRecords(
  store: ResultStore,
  ns: readonly number[],
): Promise<Map<string, UnitResult>> {
  const records = new Map<string, UnitResult>();
  for (const n of ns) {
    for (let d = 0; d < n; d++) {
      for (const [key, unit] of await store.units(n, d)) records.set(`${n}/${d}/${key}`, unit);
    }
  }
  return records;
}

/** The memory a stored unit was planned to need (bytes), as the planner estimated it. */
export function plannedBytes(unit: UnitResult): number {
  const rows = parseUnitKey(unit.unit);
  if (!rows) throw new Error(`unit key ${unit.unit}`);
  return estimateCost(unit.algorithm, unit.n, unit.depth, rows.prefix, rows.middle).bytes;
}
