// What the page shows, as JSON: every sweep with its sizes and their depths, the live workers and
// the queue counts. The server builds one of these per poll and pushes it to every open page.
// Counts are decimal strings; times are ISO strings or seconds.

import type {
  DepthProgress,
  ProgressStatus,
  SweepProgress,
  UnfitUnit,
} from '@weak-queens/shared/client';

/** The status words of the whole pipeline (the client's): `wq status` says the same. */
export type DepthStatus = ProgressStatus;
export type SweepStatus = ProgressStatus;

/** An (n, D) as the client's progress reader sees it: `done` has its value. */
export type DepthView = DepthProgress;

export interface SizeView {
  readonly n: number;
  readonly status: DepthStatus;
  readonly unitsDone: number;
  readonly units: number;
  /** S(n) once done (a weak sweep). */
  readonly S: string | null;
  /** Q(n) and the unique count once done (a classic sweep). */
  readonly Q: string | null;
  readonly unique: string | null;
  readonly reason: string | null;
  readonly depths: readonly DepthView[];
}

/** A sweep's totals as the client's progress reader counts them. */
type SweepTotals = Pick<
  SweepProgress,
  'status' | 'done' | 'total' | 'unitsDone' | 'units' | 'elapsedSeconds'
>;

export interface SweepView extends SweepTotals {
  readonly id: string;
  /** `weak` (N(n, D) and S(n)) or `classic` (Q(n) and the unique count). */
  readonly problem: 'weak' | 'classic';
  readonly createdAt: string;
  readonly cancelledAt: string | null;
  readonly targetSeconds: number;
  readonly ns: readonly number[];
  /** Remaining single-core seconds spread over the live worker slots (null when not running). */
  readonly etaSeconds: number | null;
  /** The share of the sweep's work done, by core-seconds (null where not read). */
  readonly workDone: number | null;
  readonly sizes: readonly SizeView[];
  /** Units waiting for memory no live worker has (`wq replan` plans them again). */
  readonly unfit: readonly UnfitUnitView[];
  /**
   * The n its submission has not queued: yet (still queuing), or ever (the submitter was
   * interrupted; `wq retry` finishes it), with the line `wq status` gives; null when all were.
   */
  readonly notQueued: {
    readonly ns: readonly number[];
    readonly interrupted: boolean;
    readonly message: string;
  } | null;
  /**
   * Unfinished and queued by a build of another protocol, whose queues this build does not
   * read: the line that says so (null otherwise).
   */
  readonly otherProtocol: string | null;
}

/** A unit in a memory-class queue whose class is above every live worker's slot. */
type UnfitUnitView = Omit<UnfitUnit, 'queue'>;

export interface WorkerView {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly concurrency: number;
  /** Memory it may use in all, and per slot (bytes; null for workers that do not say). */
  readonly memoryBytes: number | null;
  readonly slotBytes: number | null;
  readonly version: string | null;
  /** `0.1.0+d9654b9` (null for workers that do not say). */
  readonly build: string | null;
  /** The protocol it speaks (1 for builds that do not say). */
  readonly protocol: number;
  /** True when its protocol is not the dashboard's: it takes none of this build's jobs. */
  readonly otherProtocol: boolean;
  readonly startedAt: string;
  readonly lastSeenAt: string | null;
  /** Job ids being computed, e.g. `n14-d9-u3`. */
  readonly current: readonly string[];
  readonly jobsDone: number | null;
  /** Share of its slots' time spent on units since it started, 0..1 (null for old workers). */
  readonly busyShare: number | null;
  /** Its clock minus the Redis server's (ms) at its last heartbeat (null: it does not say). */
  readonly clockSkewMs: number | null;
}

export interface Snapshot {
  readonly generatedAt: string;
  readonly sweeps: readonly SweepView[];
  readonly workers: readonly WorkerView[];
  /** Job counts by state for each queue. */
  readonly queues: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Units counted twice with two values: kept aside, settled by `wq verify <n> --repair`. */
  readonly disagreements: readonly DisagreementView[];
}

interface DisagreementView {
  readonly n: number;
  readonly depth: number;
  readonly unit: string;
  /** Decimal strings: the stored count and the one kept aside. */
  readonly stored: string;
  readonly counted: string;
}
