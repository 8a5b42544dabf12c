// N(n, D) as the aggregate jobs compute it: from the stored unit records that the recorded plan
// names, each checked against the plan, and never from a child job's return value or a
// `:processed` hash (anyone who can write to Redis can write those). With WQ_RESULT_KEY set the
// store has already dropped every record whose MAC does not verify.
import type { Job } from 'bullmq';
import { type Algorithm, unitWeight } from '@weak-queens/shared/kernel';
import {
  type DepthResult,
  isCountQueue,
  parseUnitKey,
  QUEUE_NAMES,
  type UnitResult,
} from '@weak-queens/shared/contracts';
import type { ResultStore, Role } from '@weak-queens/shared/client';

/** A count summed from its stored units, or why it cannot be. */
export type StoredCount =
  | { readonly ok: true; readonly result: DepthResult }
  | { readonly ok: false; readonly reason: string };

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
): Promise<StoredCount> {
  const refuse = (reason: string): StoredCount => ({ ok: false, reason });
  const plan = await store.plan(n, depth, planId);
  if (!plan) {
    return refuse(
      `plan ${planId} of N(${n}, ${depth}) is not recorded` +
        (store.authenticated ? ' (or its MAC does not verify)' : ''),
    );
  }
  const { header } = plan;
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
  const stored = await store.units(n, depth, role);
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
    result: {
      kind: 'depth',
      n,
      depth,
      value: total.toString(),
      algorithm: header.algorithm,
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
 * The children of an aggregate job that are not this pipeline's: in another queue (or another
 * prefix), or with an id no plan of this n makes. A forged flow's children are refused by name.
 */
export async function foreignChildren(job: Job, prefix: string, n: number): Promise<string[]> {
  const {
    processed = {},
    unprocessed = [],
    failed = [],
    ignored = {},
  } = await job.getDependencies();
  const ids = new RegExp(`^n${n}-d\\d{1,2}(-v)?(-p[0-9a-f]{12}-u\\d+)?$`);
  const keys = [...Object.keys(processed), ...unprocessed, ...failed, ...Object.keys(ignored)];
  return keys.filter((key) => {
    if (!key.startsWith(`${prefix}:`)) return true;
    const rest = key.slice(prefix.length + 1);
    const cut = rest.indexOf(':');
    const queue = rest.slice(0, cut);
    const id = rest.slice(cut + 1);
    return !(queue === QUEUE_NAMES.aggregate || isCountQueue(queue)) || !ids.test(id);
  });
}
