// What a progress read says of a sweep, an n and an (n, D): the one shape `wq status`,
// `wq sweep --wait`, `npm start` and the dashboard all show.
import type { Queue } from 'bullmq';
import type { NotQueued, SweepRecord } from './sweep-registry.js';

/**
 * What an n, an (n, D) or a whole sweep is doing. `queued`: nothing of it counted yet;
 * `running`: some of it counted or being counted; `done`: stored; `failed`: a job failed (the
 * reason says which) or S(n) was withdrawn; `cancelled`: its jobs were removed before it finished.
 */
export type ProgressStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface DepthProgress {
  readonly depth: number;
  readonly status: ProgressStatus;
  readonly algorithm: string;
  readonly unitsDone: number;
  readonly units: number;
  /** Single-core seconds spent on its units so far (running ones included). */
  readonly seconds: number;
  /** Estimated seconds until done (null when unknown or not running). */
  readonly etaSeconds: number | null;
  /** N(n, D) once done. */
  readonly value: string | null;
  readonly reason: string | null;
}

export interface SizeProgress {
  readonly n: number;
  /** Named `state` in `wq status --json` since its first version; the words are ProgressStatus. */
  readonly state: ProgressStatus;
  readonly unitsDone: number;
  readonly units: number;
  readonly S?: string;
  /** A classic sweep's Q(n) (A000170) and unique count (A002562) once done. */
  readonly Q?: string;
  readonly unique?: string;
  readonly reason?: string;
  /** `wq status` only: the plan's expected seconds next to the measured ones. */
  readonly timing?: SizeTiming;
  /** The dashboard only: every D of n. */
  readonly depths?: readonly DepthProgress[];
  /** Units waiting in a class queue that no live worker consumes (`wq replan` helps). */
  readonly unfit?: readonly UnfitUnit[];
}

/** A unit that needs more memory than any live worker has per slot. */
export interface UnfitUnit {
  readonly jobId: string;
  readonly queue: string;
  readonly n: number;
  readonly depth: number;
  /** Its estimated peak memory (bytes). */
  readonly bytes: number;
  /** The largest per-slot memory of a live worker (0: none live). */
  readonly largestSlotBytes: number;
}

/** Expected (calibrated plan) against measured single-core seconds of one n. */
export interface SizeTiming {
  readonly estimateSeconds?: number;
  /** Summed over the N(n, D) stored so far. */
  readonly actualSeconds: number;
  readonly depths: readonly DepthTiming[];
}

export interface DepthTiming {
  readonly depth: number;
  readonly algorithm: string;
  readonly units: number;
  readonly estimateSeconds?: number;
  readonly actualSeconds: number;
}

export interface SweepProgress {
  readonly sweep: SweepRecord;
  readonly status: ProgressStatus;
  readonly sizes: readonly SizeProgress[];
  readonly done: number;
  readonly total: number;
  readonly unitsDone: number;
  readonly units: number;
  /** Wall-clock seconds from submission to the last n done (or to now). */
  readonly elapsedSeconds: number;
  /** The sweep's own pace so far, extrapolated (null unless running). */
  readonly etaSeconds: number | null;
  /**
   * The share of the sweep's work done (0 … 1): core-seconds run over core-seconds run and
   * still to run at this run's rates, running units' own progress included. Read with the ETA
   * (`eta`); absent otherwise, or when a plan cannot be read (then units tell progress).
   */
  readonly workDone?: number;
  /** The n its submission has not queued (yet, or ever: interrupted); see SweepRegistry. */
  readonly notQueued?: NotQueued;
}

export interface ProgressQueues {
  readonly count: Queue;
  readonly aggregate: Queue;
}

export interface ProgressReadOptions {
  /** Per-D progress (algorithm, units, seconds, ETA), as the dashboard shows it. */
  readonly depths?: boolean;
  /** Expected against measured seconds per n and D, as `wq status` shows them. */
  readonly timing?: boolean;
  /**
   * The ETA from the rates this run's finished units ran at (run-rates.ts): it reads the plans
   * and the stored units of every unfinished (n, D), so only those who show an ETA ask for it
   * (`wq sweep --wait`, `wq status`, the dashboard); otherwise the pace in units.
   */
  readonly eta?: boolean;
  readonly now?: number;
}

/** A sweep's progress from the progress of its n. */
export function sweepProgress(
  sweep: SweepRecord,
  sizes: readonly SizeProgress[],
  doneAt: number | undefined,
  now: number,
): SweepProgress {
  const done = sizes.filter((s) => s.state === 'done').length;
  const status: ProgressStatus =
    done === sizes.length
      ? 'done'
      : sizes.some((s) => s.state === 'failed')
        ? 'failed'
        : sizes.some((s) => s.state === 'cancelled')
          ? 'cancelled'
          : sizes.some((s) => s.state === 'running')
            ? 'running'
            : 'queued';
  const unitsDone = sizes.reduce((t, s) => t + s.unitsDone, 0);
  const units = sizes.reduce((t, s) => t + s.units, 0);
  const elapsedSeconds = Math.max(0, ((doneAt ?? now) - Date.parse(sweep.createdAt)) / 1000);
  return {
    sweep,
    status,
    sizes,
    done,
    total: sizes.length,
    unitsDone,
    units,
    elapsedSeconds,
    // Units differ in size, so this is a rough guide.
    etaSeconds:
      status === 'running' && unitsDone > 0
        ? (elapsedSeconds * (units - unitsDone)) / unitsDone
        : null,
  };
}
