// A sweep resumed where its units are: an (n, D) with units already stored (counted here, or
// imported from a store the sweep started on) goes on under the recorded plan those units
// belong to, not a plan made afresh for today's workers, whose unit keys would differ and
// leave every stored unit unused.
import { type Algorithm, estimateBytes, estimateCheckTransferBytes } from '../kernel/index.js';
import { calibrationRatio, parseUnitKey } from '../contracts/index.js';
import type { ResultStore, Role } from './result-store.js';
import type { PlannedDepth, SweepPlanOptions } from './sweep-planner.js';
import { unitPriority } from './priority.js';

/**
 * The recorded plan of (n, D) that its stored units (unverified imports included) were counted
 * under, as a plan to go on with; undefined when nothing is stored, the plan is not recorded
 * (or, keyed, its MAC fails), or one of its units no longer fits this cluster's memory.
 */
export async function resumedPlan(
  store: ResultStore,
  n: number,
  depth: number,
  role: Role,
  options: Pick<SweepPlanOptions, 'slotMemoryBytes' | 'workerMemoryBytes' | 'calibration'>,
): Promise<PlannedDepth | undefined> {
  const planId = await store.storedPlanId(n, depth, role);
  if (planId === undefined) return undefined;
  const plan = await store.plan(n, depth, planId);
  if (!plan || plan.header.role !== role) return undefined;
  const algorithm: Algorithm = plan.header.algorithm;
  const ratio = calibrationRatio(options.calibration ?? {}, algorithm);
  const units = [];
  for (const [key, record] of plan.units) {
    const rows = parseUnitKey(key);
    if (!rows) return undefined;
    // A second count by the whole transfer meets past the middle (see planCheck): its own size.
    const shifted =
      role === 'check' && algorithm === 'window-transfer' && !rows.part && rows.prefix.length === 0;
    const bytes = shifted
      ? estimateCheckTransferBytes(n, depth)
      : estimateBytes(algorithm, n, depth, rows.prefix, rows.middle, rows.part);
    const cap =
      algorithm === 'window-transfer'
        ? (options.workerMemoryBytes ?? options.slotMemoryBytes)
        : options.slotMemoryBytes;
    if (bytes > cap) return undefined;
    const estimateSeconds = record.modelSeconds * ratio;
    units.push({
      unit: {
        n,
        depth,
        algorithm,
        prefix: rows.prefix,
        middle: rows.middle,
        weight: record.weight,
        ...(rows.part ? { part: rows.part } : {}),
        estimate: { seconds: record.modelSeconds, bytes },
      },
      estimateSeconds,
      priority: unitPriority(estimateSeconds),
    });
  }
  return {
    n,
    depth,
    algorithm,
    units,
    recordedPlanId: planId,
    ...(role === 'check' ? { role: 'check' as const } : {}),
  };
}
