// Thrown by `waitFor` when a sweep cannot finish.

/** A sweep cannot finish: one of its n failed or was removed. */
export class SweepFailedError extends Error {
  readonly retryable = false;
  constructor(
    readonly sweepId: string,
    readonly n: number,
    readonly reason: string,
  ) {
    super(`sweep ${sweepId}: n=${n} cannot finish: ${reason} (see wq status; wq retry ${sweepId})`);
    this.name = 'SweepFailedError';
  }
}
