// `wq compute` without the printing: plans the work units of every (n, D) of the requested sizes,
// runs them in this thread or on a pool of worker threads, and streams N(n, ·) and S(n) per n.
import { compileConfig, type MemoryBudget } from '@weak-queens/shared/contracts';
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
  /**
   * What `auto` may choose within, as the planner for a worker of `threads` slots would: the
   * slot memory for a unit, the worker memory for a window transfer (see computeMemory).
   */
  readonly memory: MemoryBudget;
  /** Only these D of each n (absent: every D); S(n) is then not given unless all are. */
  readonly depths?: ReadonlySet<number>;
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

/**
 * The memory `auto` chooses within for `threads` threads: what a worker of that many slots
 * would have here (WQ_SLOT_MEMORY, WQ_WORKER_MEMORY, or this machine's shares), as the sweep
 * planner plans for it.
 */
export function computeMemory(
  threads: number,
  env: Readonly<Record<string, string | undefined>> = process.env,
): MemoryBudget {
  const { slotMemoryBytes, workerMemoryBytes } = compileConfig(env, { concurrency: threads });
  return { slotMemoryBytes, workerMemoryBytes };
}

export async function computeSizes(ns: readonly number[], options: ComputeOptions): Promise<void> {
  const units = planSizes(ns, options);
  const totals = new SizeTotals(units, ns, options.depths);
  // With k > 1 threads, the kernel pool: a big transfer unit runs on all k at once, the rest
  // one per thread.
  const runner: UnitRunner =
    options.threads === 1
      ? new InProcessRunner()
      : new PoolRunner(options.threads, options.memory.workerMemoryBytes);
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
  options: Pick<ComputeOptions, 'algorithm' | 'threads' | 'memory' | 'depths'>,
): WorkUnit[] {
  const { threads } = options;
  const plan = { algorithm: options.algorithm, ...options.memory };
  const depthsOf = (n: number): number[] =>
    Array.from({ length: n }, (_, depth) => depth).filter(
      (depth) => options.depths === undefined || options.depths.has(depth),
    );
  const whole = ns.flatMap((n) => depthsOf(n).flatMap((depth) => planUnits(n, depth, plan)));
  if (threads === 1) return whole;
  const totalSeconds = whole.reduce((sum, unit) => sum + unit.estimate.seconds, 0);
  const targetSeconds = Math.max(MIN_UNIT_SECONDS, totalSeconds / (threads * UNITS_PER_THREAD));
  return ns.flatMap((n) =>
    depthsOf(n).flatMap((depth) =>
      planUnits(n, depth, { ...plan, targetSeconds, maxUnits: MAX_UNITS_PER_DEPTH }),
    ),
  );
}
