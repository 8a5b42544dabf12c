// What GET /api/sweeps/:id/timeline answers: every unit the sweep's jobs counted, placed on the
// worker slot that ran it, with the planned and the actual makespan. Times are seconds from
// `origin`.

export interface TimelineUnit {
  readonly n: number;
  /** D of a weak unit; null for a classic unit (Q(n) has no D: drawn by n instead). */
  readonly depth: number | null;
  readonly role: 'primary' | 'check';
  /** The unit key within its (n, D), or within Q(n). */
  readonly unit: string;
  /** The weak kernel's algorithm, or the classic unit's method. */
  readonly algorithm: string;
  readonly worker: string;
  readonly slot: number;
  /** Seconds from `origin` (ms precision). */
  readonly start: number;
  readonly end: number;
  /** Measured single-core seconds (unrounded). */
  readonly seconds: number;
  /** The planner's calibrated estimate, when the unit carried one (a classic unit never does). */
  readonly estimateSeconds: number | null;
}

/** One worker slot: a lane of the timeline. */
export interface TimelineLane {
  readonly worker: string;
  readonly slot: number;
  /** Units of the sweep it ran (0: a live worker's slot that stayed idle). */
  readonly units: number;
  readonly busySeconds: number;
}

export interface TimelineMakespan {
  /**
   * Σ estimated core-seconds of the sweep's n ÷ the lanes shown: a simple lower bound that
   * ignores unit sizes and dependencies (null when the sweep has no estimates, as a classic sweep
   * never has, or no lanes).
   */
  readonly plannedSeconds: number | null;
  /** The sweep record's estimated single-core seconds, summed over its n. */
  readonly estimatedCoreSeconds: number | null;
  /** Last end − first start (null before any unit has finished). */
  readonly actualSeconds: number | null;
  /** Measured single-core seconds, summed over the units. */
  readonly coreSeconds: number;
  /** The lanes the planned makespan divides by. */
  readonly slots: number;
}

export interface TimelineView {
  readonly sweepId: string;
  /** Present for a classic sweep (its units have no D); absent for a weak one. */
  readonly problem?: 'classic';
  readonly ns: readonly number[];
  readonly createdAt: string;
  /** The first unit's start (epoch ms; null when no unit has a start time yet). */
  readonly origin: number | null;
  readonly lanes: readonly TimelineLane[];
  /** By start time; the first `limit` of them when `truncated`. */
  readonly units: readonly TimelineUnit[];
  /** Units of the sweep with a start time (`units.length` unless truncated). */
  readonly total: number;
  readonly truncated: boolean;
  readonly makespan: TimelineMakespan;
  /** Units over OVERRUN_RATIO × their estimate and OVERRUN_MIN_SECONDS, worst ratio first. */
  readonly overruns: readonly TimelineUnit[];
  /** Stored units of these n that are not drawn, and why. */
  readonly skipped: {
    /** Written by older workers (no sweep, start time or slot), or unreadable. */
    readonly untimed: number;
    /** Counted by another sweep's jobs (stored before this one, and reused by it). */
    readonly otherSweeps: number;
  };
}

/** A unit "ran far over" when it took more than this many times its estimate… */
export const OVERRUN_RATIO = 3;
/** …and more than this many seconds (tiny units are all noise). */
export const OVERRUN_MIN_SECONDS = 1;
/** At most this many units in one answer (and in the overrun list, MAX_OVERRUNS). */
export const MAX_TIMELINE_UNITS = 20_000;
export const MAX_OVERRUNS = 100;
