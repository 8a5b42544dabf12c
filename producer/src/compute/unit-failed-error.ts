import { WeakQueensError } from '@weak-queens/shared/contracts';
import { type WorkUnit } from '@weak-queens/shared/kernel';

/** A work unit that could not be counted (in a thread, or the thread itself died). */
export class UnitFailedError extends WeakQueensError {
  readonly retryable = false;
  constructor(
    readonly unit: WorkUnit,
    readonly reason: string,
  ) {
    super(
      `unit n=${unit.n} D=${unit.depth} ${unit.algorithm} prefix [${unit.prefix.join(',')}] failed: ${reason}`,
    );
  }
}
