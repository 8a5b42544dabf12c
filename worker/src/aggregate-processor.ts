// The `aggregate` queue's processor: N(n, D) from its units (`depth`) and S(n) from every D
// (`sum`). Every value comes from the result store, checked against the recorded plan
// (stored-counts.ts); a child's return value is never read, so a forged child changes nothing.
import type { Job, UnrecoverableError } from 'bullmq';
import {
  checkJobId,
  type CompletionRecord,
  type DepthMismatch,
  type DepthResult,
  depthJobId,
  JOB_NAMES,
  knownSum,
  leftAloneReason,
  parseDepthJobData,
  parseSumJobData,
  sumJobId,
  type SumResult,
  type VerifiedResult,
} from '@weak-queens/shared/contracts';
import {
  bullmq,
  countFromStore,
  type Logger,
  type ResultStore,
  type Role,
  type StoredCount,
} from '@weak-queens/shared/client';
import { asJobFailure } from './failures.js';
import { foreignChildren } from './foreign-children.js';
import { type RefusalRiding, rideRefusals } from './refusal-rider.js';
import { describeMismatch, disagreements } from './verification.js';

export interface AggregateProcessorDeps {
  readonly store: ResultStore;
  readonly logger: Logger;
  /** The key prefix of this pipeline's queues: an aggregate job's children must be in them. */
  readonly prefix: string;
  /** Writes Redis refuses for a while (OOM, MISCONF) tried again this long (refusal-rider.ts). */
  readonly refusals?: RefusalRiding;
}

/** One of a sum's writes, waiting out a refusal that may pass (out of memory, a full disk). */
function write<T>(deps: AggregateProcessorDeps, what: string, put: () => Promise<T>): Promise<T> {
  return rideRefusals(what, put, deps.refusals ?? { limitMs: 0 });
}

export function createAggregateProcessor(deps: AggregateProcessorDeps) {
  return async (job: Job): Promise<DepthResult | VerifiedResult | SumResult> => {
    try {
      if (job.name === JOB_NAMES.depth) return await sumUnits(job, deps);
      if (job.name === JOB_NAMES.sum) return await sumDepths(job, deps);
      throw new bullmq.UnrecoverableError(
        `job name: "${job.name}" is not allowed; expected "${JOB_NAMES.depth}" or "${JOB_NAMES.sum}"`,
      );
    } catch (err) {
      deps.logger.warn({ err, job: job.id }, 'aggregation failed');
      throw asJobFailure(err);
    }
  };
}

/**
 * Refuses (and so changes nothing) an aggregate job that is not the one the producer makes for
 * this n or (n, D): another job id, or a child outside this pipeline's queues.
 */
async function refuseForeign(job: Job, prefix: string, n: number, ids: readonly string[]) {
  if (!ids.includes(String(job.id))) {
    throw inconsistent(`job id ${job.id} is not ${ids.join(' or ')}: not a planned aggregate job`);
  }
  const foreign = await foreignChildren(job, prefix);
  if (foreign.length > 0) {
    throw inconsistent(
      `${foreign.length} child job(s) outside this pipeline's queues (${foreign.slice(0, 3).join(', ')})`,
    );
  }
}

async function sumUnits(
  job: Job,
  deps: AggregateProcessorDeps,
): Promise<DepthResult | VerifiedResult> {
  const { store, logger, prefix } = deps;
  const data = parseDepthJobData(job.data);
  const role = data.role ?? 'primary';
  // N(n, D) is the sum over every unit of one recorded plan, each exactly once: a depth job
  // that lists fewer, more or other units than the producer planned is refused.
  const plan = await store.plan(data.n, data.depth, data.planId);
  if (
    plan &&
    (plan.units.size !== data.unitKeys.length || !data.unitKeys.every((k) => plan.units.has(k)))
  ) {
    throw inconsistent(
      `the units listed for N(${data.n}, ${data.depth}) are not those of plan ${data.planId}`,
    );
  }
  await refuseForeign(job, prefix, data.n, [
    role === 'check' ? checkJobId(data.n, data.depth) : depthJobId(data.n, data.depth),
  ]);
  // The values are the stored units' (checked against the plan), never the children's.
  // A first count may hold imported units nobody here has vouched for yet (a verified sweep
  // planned none of them again): then N(n, D) is no result until the second count agrees, and
  // the sum, which compares the two, stores it.
  const counted = await countFromStore(
    store,
    data.n,
    data.depth,
    role,
    data.planId,
    data.algorithm,
    { pending: role === 'primary' },
  );
  if (!counted.ok) throw inconsistent(counted.reason);
  const result = counted.result;
  if (counted.pending.length === 0) await write(deps, 'N(n, D)', () => store.putDepth(result));
  logger.info(
    { n: data.n, depth: data.depth, units: result.units, role: data.role },
    'N(n, D) summed',
  );
  if (data.role !== 'check') return result;
  // The first has no stored N(n, D) yet where it is made of imports this count is to vouch
  // for: the sum compares the two either way.
  const first = (await store.depths(data.n)).get(data.depth);
  if (!first) return result;
  return { kind: 'verified', n: data.n, depth: data.depth, primary: first, check: result };
}

async function sumDepths(job: Job, deps: AggregateProcessorDeps): Promise<SumResult> {
  const { store, logger, prefix } = deps;
  const data = parseSumJobData(job.data);
  const n = data.n;
  await refuseForeign(job, prefix, n, [sumJobId(n)]);
  // Every N(n, D) comes from the store, and is summed again from its plan's stored units: a
  // depth record written by hand that its units do not add up to is a disagreement.
  const depths: DepthResult[] = [];
  const missing: string[] = [];
  /** D whose records this build cannot read (see protocol.ts): reported, never withdrawn. */
  const leftAlone: string[] = [];
  const unproven: { depth: number; role: Role }[] = [];
  const wrong: DepthMismatch[] = [];
  const checks = new Map<number, DepthResult>();
  // Imported units of a first count that only the second count can vouch for, by D.
  const pending = new Map<number, StoredCount & { ok: true }>();
  for (const role of data.verify ? (['primary', 'check'] as const) : (['primary'] as const)) {
    const stored = await store.depths(n, role);
    // Every D's units are read side by side (two reads each): the sum of the largest n is the
    // last job of a sweep, and n in a row would be its whole time.
    const recounted = await Promise.all(
      Array.from({ length: n }, async (_, d) => {
        const planId = stored.get(d)?.planId;
        if (planId !== undefined) return countFromStore(store, n, d, role, planId);
        // No plan named (another build's record, or one written by hand): what the stored
        // units say, summed from the plan they belong to.
        const unitsPlan = await store.storedPlanId(n, d, role);
        if (unitsPlan === undefined) return undefined;
        if (!data.verify || role !== 'primary') {
          return countFromStore(store, n, d, role, unitsPlan);
        }
        // A verified first count still made of imports: vouched for if the second agrees.
        const summed = await countFromStore(store, n, d, role, unitsPlan, undefined, {
          pending: true,
        });
        if (summed.ok && summed.pending.length > 0) pending.set(d, summed);
        return summed;
      }),
    );
    for (let d = 0; d < n; d++) {
      const again = recounted[d];
      if (again?.ok && pending.has(d) && role === 'primary') {
        depths.push(again.result);
        continue;
      }
      const depth = stored.get(d);
      const label = role === 'check' ? `the second count of D = ${d}` : `D = ${d}`;
      if (!depth) {
        missing.push(`${label} has no value`);
        continue;
      }
      if (depth.planId === undefined && !again?.ok) {
        // Another build's record, or one written by hand, that no unit here bears out: this
        // build cannot judge it, so it is neither used nor withdrawn.
        leftAlone.push(
          `${label}: its record names no plan${again ? ` and ${again.reason}` : ', and no unit of it is stored'}`,
        );
        continue;
      }
      if (again === undefined) continue; // Only a D without a plan id, said above.
      if (!again.ok) {
        if (again.unreadable) {
          leftAlone.push(`${label}: ${again.reason}`);
          continue;
        }
        missing.push(`${label}: ${again.reason}`);
        unproven.push({ depth: d, role });
        continue;
      }
      if (again.result.value !== depth.value) {
        wrong.push({
          depth: d,
          value: depth.value,
          algorithm: depth.algorithm,
          workers: depth.workers,
          // Its own units, summed again: the record says one thing, what it was made of another.
          expected: again.result.value,
          expectedFrom: again.result.algorithm,
          expectedWorkers: again.result.workers,
        });
      }
      if (role === 'check') checks.set(d, again.result);
      else depths.push(again.result);
    }
  }
  if (missing.length) {
    // A stored N(n, D) that cannot be derived from its plan's units is no result: it goes, so
    // that `wq retry` (or the next sweep) counts it again instead of failing the same way.
    await write(deps, 'forget N(n, D)', () => store.forgetDepths(n, unproven));
    throw inconsistent(`of n=${n}: ${missing.join('; ')}`);
  }
  if (leftAlone.length) {
    // Records this build cannot read say nothing against S(n): whatever is published stays.
    logger.warn({ n, leftAlone }, 'records this build cannot read: left alone');
    throw new bullmq.UnrecoverableError(leftAloneReason(n, leftAlone));
  }

  // Published only when both counts agree and every known reference matches; otherwise the n
  // fails with both values (kept in the store), and the counts in question are forgotten so
  // that `wq retry` counts them again.
  wrong.push(...disagreements(depths, data.verify ? checks : undefined));
  const S = depths.reduce((sum, d) => sum + BigInt(d.value), 0n).toString();
  // S(n) against its reference only speaks when no D has been found wrong already.
  const sumWrong = wrong.length ? undefined : knownSumMismatch(n, S);
  if (wrong.length || sumWrong) {
    const mismatch = {
      n,
      sweepId: data.sweepId,
      at: new Date().toISOString(),
      // S(n) against its reference alone names no D: every D is counted again.
      depths: wrong.length || !sumWrong ? wrong : depths.map((d) => asMismatch(d, sumWrong)),
    };
    await write(deps, 'mismatch', () => store.putMismatch(mismatch));
    const reasons = wrong.map((m) => describeMismatch(n, m));
    if (sumWrong)
      reasons.push(
        `S(${n}) = ${S}, the reference ${sumWrong.expectedFrom} is ${sumWrong.expected}`,
      );
    const message = `S(${n}) not published: ${reasons.join('; ')}`;
    logger.error({ n, mismatches: wrong }, message);
    throw new bullmq.UnrecoverableError(message);
  }

  // Both counts agree: the imports they bear out become results of this store.
  for (const [d, { result, pending: units }] of pending) {
    await write(deps, 'vouched units', () => store.vouchUnits(units));
    await write(deps, 'N(n, D)', () => store.putDepth(result));
    logger.info(
      { n, depth: d, units: units.length },
      'imported units vouched for by the second count',
    );
  }
  const record: CompletionRecord = {
    n,
    S,
    sweepId: data.sweepId,
    completedAt: new Date().toISOString(),
    cpuSeconds: depths.reduce((sum, d) => sum + d.seconds, 0),
    depths,
    workers: [...new Set(depths.flatMap((d) => d.workers))].sort(),
    ...(data.verify ? { checks: depths.map((d) => checks.get(d.depth) ?? d) } : {}),
  };
  await write(deps, 'S(n)', () => store.putSum(record));
  logger.info({ n, S }, 'S(n) complete');
  return { kind: 'sum', n, S, N: depths.map((d) => d.value) };
}

/** The published S(n) this one contradicts, if any. */
function knownSumMismatch(
  n: number,
  S: string,
): { expected: string; expectedFrom: string } | undefined {
  const known = knownSum(n);
  return known && known.value !== S
    ? { expected: known.value, expectedFrom: known.source }
    : undefined;
}

function asMismatch(
  d: DepthResult,
  against: { expected: string; expectedFrom: string },
): DepthMismatch {
  return {
    depth: d.depth,
    value: d.value,
    algorithm: d.algorithm,
    workers: d.workers,
    expected: against.expected,
    expectedFrom: `S(${d.n}) = ${against.expected} (${against.expectedFrom})`,
  };
}

function inconsistent(reason: string): UnrecoverableError {
  return new bullmq.UnrecoverableError(`children: ${reason}`);
}
