// The time a running sweep still needs, from the rates its own finished units were measured at:
// per (algorithm, D) the measured seconds over the kernel's model seconds of the units that
// finished, applied to the model seconds of the units that have not. The uncalibrated model is
// off by a factor that differs by algorithm and D (and by machine); a rate measured in the same
// run on the same workers is not.

/** What one (n, D) of a running sweep has done and has left, in model and measured seconds. */
export interface StratumProgress {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: string;
  /** The kernel's model seconds of its finished units. */
  readonly doneModelSeconds: number;
  /** The single-core seconds those units took. */
  readonly doneSeconds: number;
  /** The model seconds of its units not finished (running ones included, whole). */
  readonly leftModelSeconds: number;
  /** The largest model seconds among them (what one slot must still run at least). */
  readonly largestLeftModelSeconds: number;
  /** How much of `leftModelSeconds` the running units have done (their reported progress). */
  readonly runningDoneModelSeconds?: number;
}

export interface RemainingTime {
  /** Single-core seconds still to run, at the measured rates. */
  readonly coreSeconds: number;
  /**
   * Single-core seconds run so far: the finished units' measured seconds, and the running
   * units' reported share of theirs at the measured rates.
   */
  readonly doneCoreSeconds: number;
  /** Wall seconds on `slots` slots: the core-seconds spread, or the longest unit left. */
  readonly etaSeconds: number;
}

export interface RateOptions {
  /** Slots that run units (the live workers' concurrency summed); at least 1 is used. */
  readonly slots: number;
  /** The rate to assume where nothing of an algorithm has finished yet; default 1 (the model). */
  readonly initialRate?: (algorithm: string) => number;
}

/**
 * Model seconds of evidence the algorithm's rate counts as, against a stratum's own: a stratum
 * with little finished work leans on the rate of its algorithm's other D, one with much on its
 * own (the DFS's rate differs by D by up to 2× on one machine).
 */
export const PRIOR_MODEL_SECONDS = 1;

/** measured ÷ model, where the model seconds say anything (else undefined). */
function ratio(seconds: number, modelSeconds: number): number | undefined {
  return modelSeconds > 0 && seconds > 0 ? seconds / modelSeconds : undefined;
}

/**
 * The rate of each stratum: its own finished units' measured ÷ model seconds, shrunk towards
 * its algorithm's (then every algorithm's, then `initialRate`) by PRIOR_MODEL_SECONDS.
 */
export function stratumRates(
  strata: readonly StratumProgress[],
  options: Pick<RateOptions, 'initialRate'> = {},
): number[] {
  const sums = new Map<string, { model: number; seconds: number }>();
  let allModel = 0;
  let allSeconds = 0;
  for (const s of strata) {
    const sum = sums.get(s.algorithm) ?? { model: 0, seconds: 0 };
    sum.model += s.doneModelSeconds;
    sum.seconds += s.doneSeconds;
    sums.set(s.algorithm, sum);
    allModel += s.doneModelSeconds;
    allSeconds += s.doneSeconds;
  }
  const overall = ratio(allSeconds, allModel);
  return strata.map((s) => {
    const sum = sums.get(s.algorithm);
    const prior =
      ratio(sum?.seconds ?? 0, sum?.model ?? 0) ??
      overall ??
      options.initialRate?.(s.algorithm) ??
      1;
    return (
      (s.doneSeconds + prior * PRIOR_MODEL_SECONDS) / (s.doneModelSeconds + PRIOR_MODEL_SECONDS)
    );
  });
}

/** The core-seconds and wall seconds the strata still need at their measured rates. */
export function remainingTime(
  strata: readonly StratumProgress[],
  options: RateOptions,
): RemainingTime {
  const rates = stratumRates(strata, options);
  let coreSeconds = 0;
  let doneCoreSeconds = 0;
  let longest = 0;
  strata.forEach((s, i) => {
    const rate = rates[i] ?? 1;
    const running = Math.min(s.leftModelSeconds, s.runningDoneModelSeconds ?? 0);
    const left = s.leftModelSeconds - running;
    coreSeconds += rate * left;
    doneCoreSeconds += s.doneSeconds + rate * running;
    longest = Math.max(longest, rate * Math.min(s.largestLeftModelSeconds, left));
  });
  return {
    coreSeconds,
    doneCoreSeconds,
    etaSeconds: Math.max(coreSeconds / Math.max(1, options.slots), longest),
  };
}
