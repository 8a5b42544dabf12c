// The client's errors (the kernel's are in ../kernel/errors.ts, Redis's in
// ../contracts/redis-errors.ts): each says what happened and what would help, and its base class
// gives the exit code.
import { WeakQueensError, WorkFailedError } from '../kernel/errors.js';
import { describeSizes } from './sweep-registry.js';

const YEAR_SECONDS = 365.25 * 86_400;

/**
 * Thrown by `submit` when a sweep is estimated beyond WQ_MAX_SWEEP_CORE_SECONDS: refused before
 * anything is planned in full or queued, with the estimate and the flag that overrides the bound.
 */
export class HugeSweepError extends WeakQueensError {
  /** What was asked must change (or be confirmed with --allow-huge): exit 2. */
  readonly retryable = false;
  constructor(
    readonly ns: readonly number[],
    /** Expected single-core seconds of the whole sweep (calibrated kernel estimates). */
    readonly coreSeconds: number,
    /** Slots of the cluster it was planned for (the live workers, or this machine's). */
    readonly slots: number,
    readonly maxCoreSeconds: number,
  ) {
    super(
      `${describeSizes(ns)} is estimated at ${duration(coreSeconds)} of one core ` +
        `(${duration(coreSeconds / slots)} on the ${slots} slot${slots === 1 ? '' : 's'} there are), ` +
        `beyond WQ_MAX_SWEEP_CORE_SECONDS (${duration(maxCoreSeconds)}); nothing was queued; ` +
        `--allow-huge queues it anyway`,
    );
  }
}

/** Seconds as a person reads them: `3.2e22 years`, `41 days`, `5.0 hours`, `12 s`. */
export function duration(seconds: number): string {
  const years = seconds / YEAR_SECONDS;
  if (years >= 1e4) return `${years.toExponential(1)} years`;
  if (years >= 1) return `${round(years)} year${round(years) === '1' ? '' : 's'}`;
  if (seconds >= 2 * 86_400) return `${round(seconds / 86_400)} days`;
  if (seconds >= 2 * 3600) return `${round(seconds / 3600)} hours`;
  if (seconds >= 120) return `${round(seconds / 60)} min`;
  return `${round(seconds)} s`;
}

function round(x: number): string {
  return x >= 100 ? String(Math.round(x)) : String(Math.round(x * 10) / 10);
}

/**
 * Thrown by `waitFor` when a sweep cannot finish: one of its n failed or was removed. Exit code 1
 * (failed work).
 */
export class SweepFailedError extends WorkFailedError {
  constructor(
    readonly sweepId: string,
    readonly n: number,
    readonly reason: string,
  ) {
    super(`sweep ${sweepId}: n=${n} cannot finish: ${reason} (see wq status; wq retry ${sweepId})`);
  }
}

/**
 * Thrown by `waitFor` when the sweep's own record is gone from Redis while it is followed: deleted
 * with its keys, or the database flushed (FLUSHALL). Nothing of it is left to wait for, so the
 * work failed (exit 1); the sizes asked are the user's to submit again.
 */
export class SweepGoneError extends WorkFailedError {
  constructor(readonly sweepId: string) {
    super(
      `sweep ${sweepId}: the sweep's records are gone from Redis (deleted, or the database ` +
        'flushed) while it ran; submit its sizes again',
    );
  }
}

/** A refused line of `wq results --import` (result-transfer.ts, classic-transfer.ts): its number in the file (from 1) and why. */
export interface RefusedLine {
  readonly line: number;
  readonly reason: string;
}

/** An import file was refused: an import is all or nothing, so nothing was written. */
export class ImportRefusedError extends WeakQueensError {
  readonly retryable = false;
  constructor(readonly refused: readonly RefusedLine[]) {
    super(
      `import refused, nothing written: ${refused.length} bad line${refused.length === 1 ? '' : 's'}` +
        ` (first: line ${refused[0]?.line}: ${refused[0]?.reason})`,
    );
  }
}
