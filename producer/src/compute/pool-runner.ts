// Runs a batch of work units on the kernel pool the worker uses too: largest first on a slot
// each, and a big window-transfer unit on a team of every thread (the transfer does not split
// into units, so it would otherwise be one thread's long tail).
import { KernelPool, type WorkUnit } from '@weak-queens/shared/kernel';
import { UnitFailedError } from '../errors.js';
import type { UnitEvents, UnitRunner } from './unit-runner.js';

/** Below this estimate a transfer costs about as much to start a team for as to count. */
const TEAM_MIN_SECONDS = 0.25;

export class PoolRunner implements UnitRunner {
  private readonly pool: KernelPool;

  /** `workerMemoryBytes`: what all the units running at once may use together. */
  constructor(threads: number, workerMemoryBytes: number) {
    this.pool = new KernelPool(threads, {
      wholeMachineSeconds: TEAM_MIN_SECONDS,
      // The worker memory the units were planned for: big transfer tables side by side wait
      // rather than take more than it together.
      memoryBudget: workerMemoryBytes,
    });
  }

  /** Whether a unit runs on the team rather than on one slot. */
  takes(unit: WorkUnit): boolean {
    return this.pool.usesWholeMachine(unit);
  }

  async run(units: readonly WorkUnit[], events: UnitEvents): Promise<void> {
    // Largest first: the long units start early and the small ones fill the gaps at the end.
    // The pool serves units in the order they ask, so asking in this order is the schedule.
    const order = units
      .map((_, index) => index)
      .sort((a, b) => (units[b]?.estimate.seconds ?? 0) - (units[a]?.estimate.seconds ?? 0));
    await Promise.all(
      order.map(async (index) => {
        const unit = units[index] as WorkUnit;
        const onProgress = (fraction: number): void => events.onProgress?.(index, fraction);
        try {
          const { value } = await this.pool.run(unit, onProgress);
          events.onDone(index, value);
        } catch (error) {
          throw new UnitFailedError(unit, error instanceof Error ? error.message : String(error));
        }
      }),
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
