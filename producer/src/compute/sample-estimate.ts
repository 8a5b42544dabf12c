// The arithmetic of `wq plan --sample`: how k sampled units are spread over the strata of a plan
// (one stratum per (n, D)), and what their measured seconds say about every unit. Across the
// strata the combined ratio estimator (Cochran, Sampling Techniques, 6.11): the stratified
// estimates of measured and of model seconds, their ratio times every unit's model seconds. With
// a few units per stratum it is far steadier than a ratio per stratum (whose small-sample bias
// adds up over the strata), and a stratum of one sampled unit still counts. Pure: the runner
// measures, this extrapolates.

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
  /** measured ÷ model seconds (the stratum's own when measured whole, else the common one). */
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

/** A stratum and its sample; `pools` if its sample joins the common rate. */
export interface SampledStratum extends StratumSize {
  readonly sample: readonly Measured[];
  readonly pools: boolean;
}

/**
 * Every stratum's core-seconds. One measured whole is exact. The others take the combined rate
 * R = Σ N·ȳ ÷ Σ N·x̄ over the pooling strata with a sample, times their model seconds; the
 * variance of each is N²(1 − n/N)·v·x̄²/n (n at least 1), where v is the pooled variance of a
 * sampled unit's rate around R (residuals eᵢ = yᵢ − R·xᵢ relative to xᵢ) and x̄ the stratum's
 * mean model seconds per unit. Without any pooled sample R is 1 and v is 1: the model, ±100 %.
 */
export function combinedEstimates(strata: readonly SampledStratum[]): StratumEstimate[] {
  const whole = (s: SampledStratum) => s.units > 0 && s.sample.length >= s.units;
  let measured = 0;
  let model = 0;
  const pooled: Measured[] = [];
  for (const s of strata) {
    if (!s.pools || s.sample.length === 0) continue;
    const n = s.sample.length;
    measured += (s.units * s.sample.reduce((t, m) => t + m.seconds, 0)) / n;
    model += (s.units * s.sample.reduce((t, m) => t + m.modelSeconds, 0)) / n;
    if (!whole(s)) pooled.push(...s.sample);
  }
  const rate = model > 0 ? measured / model : 1;
  let squares = 0;
  for (const m of pooled) {
    if (m.modelSeconds > 0) squares += ((m.seconds - rate * m.modelSeconds) / m.modelSeconds) ** 2;
  }
  const v = pooled.length >= 2 ? squares / (pooled.length - 1) : 1;
  return strata.map((s) => {
    if (whole(s)) {
      const coreSeconds = s.sample.reduce((t, m) => t + m.seconds, 0);
      return {
        rate: s.modelSeconds > 0 ? coreSeconds / s.modelSeconds : 1,
        coreSeconds,
        variance: 0,
        source: 'whole',
      };
    }
    const n = Math.max(1, s.sample.length);
    const N = Math.max(s.units, n);
    const meanModel = s.units > 0 ? s.modelSeconds / s.units : 0;
    return {
      rate,
      coreSeconds: rate * s.modelSeconds,
      variance: (N * N * (1 - s.sample.length / N) * v * meanModel * meanModel) / n,
      source: s.sample.length > 0 ? 'sample' : 'fallback',
    };
  });
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
