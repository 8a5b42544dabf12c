// Snapshots of the unit records in the result store: each record names the worker process that
// computed it and how long it took, so an unchanged record proves the unit was not recomputed.
import type { ResultStore } from '@weak-queens/shared/client';
import type { UnitResult } from '@weak-queens/shared/contracts';

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
