// The arithmetic of `wq plan --sample`: how k sampled units are spread over the strata of a plan
// (one stratum per (n, D)), and what their measured seconds say about every unit. Within a
// stratum the ratio estimator: measured ÷ model seconds of the sampled units, times the model
// seconds of all of them, with its variance from the sample's residuals (Cochran, Sampling
// Techniques, 6.3). Pure: the runner measures, this extrapolates.

/** One stratum as the sampler sees it: how many units and their summed model seconds. */
export interface StratumSize {
  readonly units: number;
  readonly modelSeconds: number;
}

/** A sampled unit: the kernel's model seconds for it and the seconds it took here. */
export interface Measured {
  readonly modelSeconds: number;
  readonly seconds: number;
}

export interface StratumEstimate {
  /** measured ÷ model seconds (the stratum's, or the fallback's where it has no sample). */
  readonly rate: number;
  readonly coreSeconds: number;
  /** Variance of coreSeconds (0 when the stratum was measured whole). */
  readonly variance: number;
  /** Where the rate comes from. */
  readonly source: 'sample' | 'whole' | 'fallback';
}

/**
 * Spreads k units over the strata in proportion to their model seconds (largest remainders
 * first), at most a stratum's own units each, so the heavy (n, D) get most of the sample.
 * Returns the units per stratum; they add up to min(k, all units).
 */
export function allocateSample(strata: readonly StratumSize[], k: number): number[] {
  const total = strata.reduce((t, s) => t + s.modelSeconds, 0);
  const capacity = strata.reduce((t, s) => t + s.units, 0);
  const wanted = Math.min(k, capacity);
  const shares = strata.map((s) =>
    total > 0 ? (wanted * s.modelSeconds) / total : wanted / strata.length,
  );
  const counts = shares.map((share, i) => Math.min(strata[i]?.units ?? 0, Math.floor(share)));
  let left = wanted - counts.reduce((t, c) => t + c, 0);
  // Largest remainders first; a stratum that is full passes its turn on.
  const order = shares
    .map((share, i) => ({ i, rest: share - Math.floor(share) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  while (left > 0) {
    let gave = false;
    for (const { i } of order) {
      if (left === 0) break;
      if ((counts[i] ?? 0) < (strata[i]?.units ?? 0)) {
        counts[i] = (counts[i] ?? 0) + 1;
        left--;
        gave = true;
      }
    }
    if (!gave) break;
  }
  return counts;
}

/** Σ measured ÷ Σ model of a sample, or undefined when the model says nothing. */
function sampleRate(sample: readonly Measured[]): number | undefined {
  const model = sample.reduce((t, m) => t + m.modelSeconds, 0);
  const seconds = sample.reduce((t, m) => t + m.seconds, 0);
  return model > 0 ? seconds / model : undefined;
}

/**
 * The stratum's core-seconds from its sample: rate × its model seconds, with the ratio
 * estimator's variance N² (1 − n/N) s²ₑ / n, where eᵢ = yᵢ − rate · xᵢ. A stratum measured
 * whole is exact; one without a sample (or of one unit, whose residual says nothing) takes
 * `fallback`: a rate and a relative variance of a unit's seconds from the pooled sample.
 */
export function estimateStratum(
  stratum: StratumSize,
  sample: readonly Measured[],
  fallback: { readonly rate: number; readonly relativeVariance: number },
): StratumEstimate {
  if (sample.length >= stratum.units && stratum.units > 0) {
    const coreSeconds = sample.reduce((t, m) => t + m.seconds, 0);
    return {
      rate: stratum.modelSeconds > 0 ? coreSeconds / stratum.modelSeconds : 1,
      coreSeconds,
      variance: 0,
      source: 'whole',
    };
  }
  const own = sample.length >= 2 ? sampleRate(sample) : undefined;
  if (own === undefined) {
    const coreSeconds = fallback.rate * stratum.modelSeconds;
    // Each unit off by the pooled relative spread, independently.
    const perUnit = stratum.units > 0 ? coreSeconds / stratum.units : 0;
    return {
      rate: fallback.rate,
      coreSeconds,
      variance: stratum.units * perUnit * perUnit * fallback.relativeVariance,
      source: 'fallback',
    };
  }
  const n = sample.length;
  const N = stratum.units;
  let squares = 0;
  for (const m of sample) squares += (m.seconds - own * m.modelSeconds) ** 2;
  const residualVariance = squares / (n - 1);
  return {
    rate: own,
    coreSeconds: own * stratum.modelSeconds,
    variance: (N * N * (1 - n / N) * residualVariance) / n,
    source: 'sample',
  };
}

/**
 * The pooled fallback of a set of samples: their overall rate, and the relative variance of a
 * unit's seconds around rate × model (squared residual over squared mean seconds).
 */
export function pooledFallback(samples: readonly Measured[]): {
  rate: number;
  relativeVariance: number;
} {
  const rate = sampleRate(samples) ?? 1;
  if (samples.length < 2) return { rate, relativeVariance: 1 };
  const mean = samples.reduce((t, m) => t + m.seconds, 0) / samples.length;
  let squares = 0;
  for (const m of samples) squares += (m.seconds - rate * m.modelSeconds) ** 2;
  return {
    rate,
    relativeVariance: mean > 0 ? squares / (samples.length - 1) / (mean * mean) : 1,
  };
}

/** 95 % two-sided normal quantile. */
export const Z95 = 1.96;

/** A total and its 95 % interval from summed estimates and variances. */
export function interval(estimates: readonly { coreSeconds: number; variance: number }[]): {
  coreSeconds: number;
  low: number;
  high: number;
} {
  const coreSeconds = estimates.reduce((t, e) => t + e.coreSeconds, 0);
  const half = Z95 * Math.sqrt(estimates.reduce((t, e) => t + e.variance, 0));
  return { coreSeconds, low: Math.max(0, coreSeconds - half), high: coreSeconds + half };
}
