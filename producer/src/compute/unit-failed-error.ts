import { WorkFailedError } from '@weak-queens/shared/cli';
import { type WorkUnit } from '@weak-queens/shared/kernel';

/** A work unit that could not be counted (in a thread, or the thread itself died). */
export class UnitFailedError extends WorkFailedError {
  constructor(
    readonly unit: WorkUnit,
    readonly reason: string,
  ) {
    super(
      `unit n=${unit.n} D=${unit.depth} ${unit.algorithm} prefix [${unit.prefix.join(',')}] failed: ${reason}`,
    );
  }
}
