// The `aggregate` queue's processor: N(n, D) from its units (`depth`) and S(n) from every D
// (`sum`). Children already in the result store when the sweep was planned were not enqueued;
// their values come from the store. Every expected part must be present exactly once.
import { type Job, UnrecoverableError } from 'bullmq';
import {
  type CompletionRecord,
  type DepthResult,
  JOB_NAMES,
  parseChildResult,
  parseDepthJobData,
  parseSumChild,
  parseSumJobData,
  parseUnitResult,
  type SumResult,
  type UnitResult,
  type VerifiedResult,
} from '@weak-queens/shared/contracts';
import { type Logger, type ResultStore } from '@weak-queens/shared/client';
import { asJobFailure } from './failures.js';
import { describeMismatch, disagreements } from './verification.js';

export interface AggregateProcessorDeps {
  readonly store: ResultStore;
  readonly logger: Logger;
}

export function createAggregateProcessor(deps: AggregateProcessorDeps) {
  return async (job: Job): Promise<DepthResult | VerifiedResult | SumResult> => {
    try {
      if (job.name === JOB_NAMES.depth) return await sumUnits(job, deps);
      if (job.name === JOB_NAMES.sum) return await sumDepths(job, deps);
      throw new UnrecoverableError(
        `job name: "${job.name}" is not allowed; expected "${JOB_NAMES.depth}" or "${JOB_NAMES.sum}"`,
      );
    } catch (err) {
      deps.logger.warn({ err, job: job.id }, 'aggregation failed');
      throw asJobFailure(err);
    }
  };
}

async function sumUnits(
  job: Job,
  { store, logger }: AggregateProcessorDeps,
): Promise<DepthResult | VerifiedResult> {
  const data = parseDepthJobData(job.data);
  // N(n, D) is the sum over every unit of one recorded plan, each exactly once: a depth job
  // that lists fewer, more or other units than the producer planned is refused.
  const plan = await store.planUnitKeys(data.n, data.depth, data.planId);
  const role = data.role ?? 'primary';
  if (!plan)
    throw inconsistent(`plan ${data.planId} of N(${data.n}, ${data.depth}) is not recorded`);
  if (
    plan.header.role !== role ||
    plan.header.algorithm !== data.algorithm ||
    plan.keys.size !== data.unitKeys.length ||
    !data.unitKeys.every((k) => plan.keys.has(k))
  ) {
    throw inconsistent(
      `the units listed for N(${data.n}, ${data.depth}) are not those of plan ${data.planId}`,
    );
  }
  const found = new Map<string, UnitResult>();
  let first: DepthResult | undefined;
  for (const value of Object.values(await job.getChildrenValues())) {
    // A second count's one other child is the first count of the same (n, D).
    if (data.role === 'check' && !isCheckUnit(value)) {
      first = parseChildResult(value);
      if (first.n !== data.n || first.depth !== data.depth) {
        throw inconsistent(
          `a count of (n=${first.n}, D=${first.depth}) under (n=${data.n}, D=${data.depth})`,
        );
      }
      continue;
    }
    const unit = parseUnitResult(value);
    if (unit.n !== data.n || unit.depth !== data.depth) {
      throw inconsistent(
        `a unit of (n=${unit.n}, D=${unit.depth}) under (n=${data.n}, D=${data.depth})`,
      );
    }
    // At-least-once delivery: a unit may come back from two jobs. It counts once, and only if
    // both deliveries agree.
    const earlier = found.get(unit.unit);
    if (earlier) {
      if (earlier.value !== unit.value) {
        throw inconsistent(`unit ${unit.unit} reported twice: ${earlier.value} and ${unit.value}`);
      }
      logger.warn({ n: data.n, depth: data.depth, unit: unit.unit }, 'unit delivered twice');
      continue;
    }
    found.set(unit.unit, unit);
  }
  const expected = new Set(data.unitKeys);
  for (const key of found.keys()) {
    if (!expected.has(key)) throw inconsistent(`unit ${key} is not in the plan of this (n, D)`);
  }
  if (found.size < expected.size) {
    const stored = await store.units(data.n, data.depth, data.role);
    for (const key of expected) {
      const unit = stored.get(key);
      if (!found.has(key) && unit) found.set(key, unit);
    }
  }
  const missing = data.unitKeys.filter((k) => !found.has(k));
  if (missing.length) throw inconsistent(`units ${missing.join(', ')} have no value`);

  let total = 0n;
  let seconds = 0;
  let estimateSeconds: number | undefined = 0;
  const workers = new Set<string>();
  for (const unit of found.values()) {
    total += BigInt(unit.value);
    seconds += unit.seconds;
    estimateSeconds =
      estimateSeconds === undefined || unit.estimateSeconds === undefined
        ? undefined
        : estimateSeconds + unit.estimateSeconds;
    workers.add(unit.worker);
  }
  const result: DepthResult = {
    kind: 'depth',
    n: data.n,
    depth: data.depth,
    value: total.toString(),
    algorithm: data.algorithm,
    units: found.size,
    seconds,
    workers: [...workers].sort(),
    ...(estimateSeconds === undefined ? {} : { estimateSeconds }),
    ...(data.role ? { role: data.role } : {}),
  };
  await store.putDepth(result);
  logger.info(
    { n: data.n, depth: data.depth, units: found.size, role: data.role },
    'N(n, D) summed',
  );
  if (data.role !== 'check') return result;
  first ??= (await store.depths(data.n)).get(data.depth);
  if (!first) throw inconsistent(`the first count of N(${data.n}, ${data.depth}) has no value`);
  return { kind: 'verified', n: data.n, depth: data.depth, primary: first, check: result };
}

function isCheckUnit(value: unknown): boolean {
  const f = value as { kind?: unknown; role?: unknown } | null;
  return typeof f === 'object' && f !== null && f.kind === 'unit' && f.role === 'check';
}

async function sumDepths(job: Job, { store, logger }: AggregateProcessorDeps): Promise<SumResult> {
  const data = parseSumJobData(job.data);
  const n = data.n;
  const found = new Map<number, DepthResult>();
  const checks = new Map<number, DepthResult>();
  for (const value of Object.values(await job.getChildrenValues())) {
    const { primary: depth, check } = parseSumChild(value);
    if (depth.n !== n || depth.depth > n - 1) {
      throw inconsistent(`a value of (n=${depth.n}, D=${depth.depth}) under S(${n})`);
    }
    if (found.has(depth.depth)) throw inconsistent(`D=${depth.depth} reported twice`);
    found.set(depth.depth, depth);
    if (check) checks.set(check.depth, check);
  }
  if (found.size < n) {
    for (const [d, depth] of await store.depths(n)) if (!found.has(d)) found.set(d, depth);
  }
  if (data.verify && checks.size < n) {
    for (const [d, check] of await store.depths(n, 'check'))
      if (!checks.has(d)) checks.set(d, check);
    const unchecked = Array.from({ length: n }, (_, d) => d).filter((d) => !checks.has(d));
    if (unchecked.length) {
      throw inconsistent(`D = ${unchecked.join(', ')} of n=${n} have no second count`);
    }
  }
  const depths: DepthResult[] = [];
  const missing: number[] = [];
  for (let d = 0; d < n; d++) {
    const depth = found.get(d);
    if (depth) depths.push(depth);
    else missing.push(d);
  }
  if (missing.length) throw inconsistent(`D = ${missing.join(', ')} of n=${n} have no value`);

  // Published only when both counts agree and every known reference matches; otherwise the n
  // fails with both values (kept in the store), and the counts in question are forgotten so
  // that `wq retry` counts them again.
  const wrong = disagreements(depths, data.verify ? checks : undefined);
  if (wrong.length) {
    await store.putMismatch({
      n,
      sweepId: data.sweepId,
      at: new Date().toISOString(),
      depths: wrong,
    });
    const message = `S(${n}) not published: ${wrong.map((m) => describeMismatch(n, m)).join('; ')}`;
    logger.error({ n, mismatches: wrong }, message);
    throw new UnrecoverableError(message);
  }

  const S = depths.reduce((sum, d) => sum + BigInt(d.value), 0n).toString();
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
  await store.putSum(record);
  logger.info({ n, S }, 'S(n) complete');
  return { kind: 'sum', n, S, N: depths.map((d) => d.value) };
}

function inconsistent(reason: string): UnrecoverableError {
  return new UnrecoverableError(`children: ${reason}`);
}
