// Runs the big window-transfer units of a batch one after another, each on a team of every
// thread (the transfer does not split into units, so it would otherwise be one thread's long
// tail), and hands the other units to another runner.
import { countByWindowTransferParallel, type WorkUnit } from '@weak-queens/shared/kernel';
import { UnitFailedError } from './unit-failed-error.js';
import type { UnitEvents, UnitRunner } from './unit-runner.js';

/** Below this estimate a transfer costs about as much to start a team for as to count. */
export const TEAM_MIN_SECONDS = 0.25;

export class TeamRunner implements UnitRunner {
  constructor(
    private readonly threads: number,
    private readonly rest: UnitRunner,
    private readonly minSeconds = TEAM_MIN_SECONDS,
  ) {}

  /** Whether a unit runs on the team rather than on one of the rest's threads. */
  takes(unit: WorkUnit): boolean {
    return (
      this.threads > 1 &&
      unit.algorithm === 'window-transfer' &&
      unit.estimate.seconds >= this.minSeconds
    );
  }

  async run(units: readonly WorkUnit[], events: UnitEvents): Promise<void> {
    const team: number[] = [];
    const others: number[] = [];
    units.forEach((unit, index) => (this.takes(unit) ? team : others).push(index));
    // Largest first, like the pool: the team's units are the batch's longest.
    team.sort((a, b) => (units[b]?.estimate.seconds ?? 0) - (units[a]?.estimate.seconds ?? 0));
    for (const index of team) {
      const unit = units[index];
      if (!unit) continue;
      let count: bigint;
      try {
        count = await countByWindowTransferParallel(unit.n, unit.depth, unit.prefix, {
          threads: this.threads,
          onProgress: events.onProgress && ((f) => events.onProgress?.(index, f)),
        });
      } catch (error) {
        throw new UnitFailedError(unit, error instanceof Error ? error.message : String(error));
      }
      events.onDone(index, BigInt(unit.weight) * count);
    }
    const rest = others.flatMap((index) => units[index] ?? []);
    await this.rest.run(rest, {
      onProgress: events.onProgress && ((i, f) => events.onProgress?.(others[i] ?? -1, f)),
      onDone: (i, count) => events.onDone(others[i] ?? -1, count),
    });
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
