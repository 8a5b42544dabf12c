// N(n, D) as the aggregate jobs compute it, and as the planner checks a stored one before it
// skips it: from the stored unit records that the recorded plan names, each checked against the
// plan, never from a child job's return value or a `:processed` hash (anyone who can write to
// Redis can write those). With WQ_RESULT_KEY set the store has already dropped every record
// whose MAC does not verify.
import { type Algorithm, unitWeight } from '../kernel/index.js';
import {
  type DepthResult,
  parseUnitKey,
  PROTOCOL_VERSION,
  protocolOf,
  type UnitResult,
} from '../contracts/index.js';
import type { ResultStore, Role } from './result-store.js';

/** A count summed from its stored units, or why it cannot be. */
export type StoredCount =
  | {
      readonly ok: true;
      readonly result: DepthResult;
      /** Units in it that are unverified imports (only with `pending`): no result yet. */
      readonly pending: readonly UnitResult[];
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /**
       * True when this build cannot read the count at all (its plan is gone, or is of a newer
       * protocol), rather than having read it and found it wrong: such a count is left alone
       * and reported, never withdrawn.
       */
      readonly unreadable?: true;
    };

/**
 * Sums the units of plan `planId` of (n, D) as the store holds them. Every unit of the plan
 * must be stored exactly once, for this (n, D) and role, with the plan's weight (which its rows
 * must give, so a plan written by hand with a forged weight is refused too), counted by the
 * plan's algorithm (or the DFS a worker falls back on when a unit exceeds its memory).
 */
export async function countFromStore(
  store: ResultStore,
  n: number,
  depth: number,
  role: Role,
  planId: string,
  algorithm?: Algorithm,
  /** Unverified imports count too, listed apart (see ResultStore.units). */
  options: { readonly pending?: boolean } = {},
): Promise<StoredCount> {
  const refuse = (reason: string): StoredCount => ({ ok: false, reason });
  const unreadable = (reason: string): StoredCount => ({ ok: false, reason, unreadable: true });
  // Both read at once; the units only count once the plan has passed.
  const unitsRead = store.units(n, depth, role, options);
  unitsRead.catch(() => undefined);
  const plan = await store.plan(n, depth, planId);
  if (!plan) {
    return unreadable(
      `plan ${planId} of N(${n}, ${depth}) is not recorded` +
        (store.authenticated ? ' (or its MAC does not verify)' : ''),
    );
  }
  const { header } = plan;
  if (protocolOf(header) > PROTOCOL_VERSION) {
    return unreadable(
      `plan ${planId} of N(${n}, ${depth}) was made by a build of protocol ${protocolOf(header)}, this one speaks ${PROTOCOL_VERSION}`,
    );
  }
  if (header.role !== role) return refuse(`plan ${planId} is a ${header.role} count, not ${role}`);
  if (algorithm !== undefined && header.algorithm !== algorithm) {
    return refuse(`plan ${planId} counts with ${header.algorithm}, not ${algorithm}`);
  }
  for (const [key, planned] of plan.units) {
    const rows = parseUnitKey(key);
    if (!rows) return refuse(`plan ${planId} holds ${key}, which is not a unit key`);
    const weight = rows.part ? 1 : unitWeight(n, depth, rows.prefix, rows.middle);
    if (weight !== planned.weight) {
      return refuse(
        `plan ${planId} gives unit ${key} weight ${planned.weight}, its rows give ${weight}`,
      );
    }
  }
  const stored = await unitsRead;
  const missing: string[] = [];
  const units: UnitResult[] = [];
  for (const [key, planned] of plan.units) {
    const unit = stored.get(key);
    if (!unit) {
      missing.push(key);
      continue;
    }
    if (unit.weight !== undefined && unit.weight !== planned.weight) {
      return refuse(`unit ${key} was stored with weight ${unit.weight}, planned ${planned.weight}`);
    }
    if (unit.algorithm !== header.algorithm && unit.algorithm !== 'dfs') {
      return refuse(
        `unit ${key} was counted by ${unit.algorithm}; plan ${planId} uses ${header.algorithm}`,
      );
    }
    units.push(unit);
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', …' : '');
    return refuse(`${missing.length} unit(s) of N(${n}, ${depth}) have no stored value: ${shown}`);
  }
  let total = 0n;
  let seconds = 0;
  let estimateSeconds: number | undefined = 0;
  const workers = new Set<string>();
  for (const unit of units) {
    total += BigInt(unit.value);
    seconds += unit.seconds;
    estimateSeconds =
      estimateSeconds === undefined || unit.estimateSeconds === undefined
        ? undefined
        : estimateSeconds + unit.estimateSeconds;
    workers.add(unit.worker);
  }
  return {
    ok: true,
    pending: units.filter((u) => u.unverified),
    result: {
      kind: 'depth',
      n,
      depth,
      value: total.toString(),
      // What counted it: the plan's algorithm, or the DFS when every unit fell back on it.
      algorithm: units.every((u) => u.algorithm === 'dfs') ? 'dfs' : header.algorithm,
      units: units.length,
      seconds,
      workers: [...workers].sort(),
      ...(estimateSeconds === undefined ? {} : { estimateSeconds }),
      ...(role === 'check' ? { role: 'check' as const } : {}),
      planId,
    },
  };
}

/**
 * The stored N(n, D) that their plans' stored units bear out, by D; the others (no plan, a unit
 * missing or not trusted, another value) are left out, so the planner counts them again.
 */
export async function provenDepths(
  store: ResultStore,
  n: number,
  role: Role = 'primary',
): Promise<Map<number, DepthResult>> {
  const proven = new Map<number, DepthResult>();
  for (const [d, depth] of await store.depths(n, role)) {
    if (depth.planId === undefined) continue;
    const again = await countFromStore(store, n, d, role, depth.planId);
    if (again.ok && again.result.value === depth.value) proven.set(d, depth);
  }
  return proven;
}
