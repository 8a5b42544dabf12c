// `wq compute` without the printing: plans the work units of every (n, D) of the requested sizes,
// runs them in this thread or on a pool of worker threads, and streams N(n, ·) and S(n) per n.
import { type AlgorithmChoice, planUnits, type WorkUnit } from '@weak-queens/shared/kernel';
import { CostProgress } from './cost-progress.js';
import { InProcessRunner } from './in-process-runner.js';
import { type SizeResult, SizeTotals } from './size-totals.js';
import { PoolRunner } from './pool-runner.js';
import type { UnitRunner } from './unit-runner.js';

export interface ComputeOptions {
  readonly algorithm: AlgorithmChoice;
  /** 1 counts in this thread; k > 1 uses k worker threads. */
  readonly threads: number;
  /** Fraction (0..1) of the estimated work done over all sizes. */
  readonly onProgress?: (fraction: number) => void;
  /** Called once per n, in increasing n, as soon as that n is complete. */
  readonly onSize: (result: SizeResult) => void;
}

/** Units per thread we aim for, so the largest-first schedule can even out the threads. */
const UNITS_PER_THREAD = 8;
/** Below this a unit costs more to ship to a thread than to count. */
const MIN_UNIT_SECONDS = 0.05;
/** Cap per (n, D); a few thousand keeps planning itself well under a second. */
const MAX_UNITS_PER_DEPTH = 2048;

export async function computeSizes(ns: readonly number[], options: ComputeOptions): Promise<void> {
  const units = planSizes(ns, options.algorithm, options.threads);
  const totals = new SizeTotals(units, ns);
  // With k > 1 threads, the kernel pool: a big transfer unit runs on all k at once, the rest
  // one per thread.
  const runner: UnitRunner =
    options.threads === 1 ? new InProcessRunner() : new PoolRunner(options.threads);
  const progress = options.onProgress && new CostProgress(units, options.onProgress);
  try {
    for (const result of totals.drain()) options.onSize(result);
    await runner.run(units, {
      onProgress: progress && ((index, fraction) => progress.partial(index, fraction)),
      onDone: (index, count) => {
        progress?.done(index);
        for (const result of totals.add(index, count)) options.onSize(result);
      },
    });
  } finally {
    await runner.close();
  }
}

/**
 * One thread needs no splitting beyond the planner's own (mirror halves for the DFS). For k
 * threads, split until each unit is about 1/(8k) of the estimated total.
 */
export function planSizes(
  ns: readonly number[],
  algorithm: AlgorithmChoice,
  threads: number,
): WorkUnit[] {
  const whole = ns.flatMap((n) =>
    Array.from({ length: n }, (_, depth) => planUnits(n, depth, { algorithm })).flat(),
  );
  if (threads === 1) return whole;
  const totalSeconds = whole.reduce((sum, unit) => sum + unit.estimate.seconds, 0);
  const targetSeconds = Math.max(MIN_UNIT_SECONDS, totalSeconds / (threads * UNITS_PER_THREAD));
  return ns.flatMap((n) =>
    Array.from({ length: n }, (_, depth) =>
      planUnits(n, depth, { algorithm, targetSeconds, maxUnits: MAX_UNITS_PER_DEPTH }),
    ).flat(),
  );
}
