// How `wq plan --sample` costs the window transfers of a plan. A transfer is one unit however
// large, so it cannot be sampled by its units, and running it at its own n costs at least its
// table's build (about half of it at N(16, 9)). Instead the largest transfer of each n is run at
// a smaller n, the largest whose model fits a small share of the plan (and a few seconds, and a
// GiB), then at the n below it; its rate is the first's, and the two rates' difference its
// spread. The other transfers of that n take its rate; those too small to matter are run whole.
import { type Algorithm, planUnits, type WorkUnit } from '@weak-queens/shared/kernel';

/**
 * A fit's larger run may model at most this share of the plan's model seconds. Small tables
 * fit in the caches and run faster per operation than the plan's (N(13, 9) at 0.7 of N(16, 9)'s
 * rate, N(14, 9) at 0.9–1.1), so the share is set to reach N(14, 9) for S(16).
 */
const FIT_SHARE = 0.025;
/** …and at most this many model seconds, so that a large plan's sample stays a few minutes. */
const FIT_MAX_SECONDS = 15;
/** …and at most this much memory: the sample runs in this process. */
const FIT_MAX_BYTES = 1024 ** 3;
/** A fitted run modelled under this is mostly its fixed costs: its rate says nothing. */
const MIN_FIT_SECONDS = 0.05;
/** A transfer modelled under both this many seconds and WHOLE_SHARE of the plan is run whole. */
const WHOLE_SECONDS = 0.5;
const WHOLE_SHARE = 0.001;

/** A transfer stratum as this file sees it. */
export interface TransferStratum {
  readonly n: number;
  readonly depth: number;
  readonly algorithm: Algorithm;
  /** Model seconds of its planned units. */
  readonly modelSeconds: number;
}

/** Run whole; fitted on smaller boards (larger first); or priced at stratum `by`'s rate. */
export type TransferCosting =
  | { readonly kind: 'whole' }
  | { readonly kind: 'fitted'; readonly points: readonly { n: number; unit: WorkUnit }[] }
  | { readonly kind: 'priced'; readonly by: number };

/** The smaller boards a transfer is fitted on: the largest n' within budget, then n' − 1. */
function fitPoints(s: TransferStratum, planModel: number): { n: number; unit: WorkUnit }[] {
  const budget = Math.min(FIT_SHARE * planModel, FIT_MAX_SECONDS, s.modelSeconds / 2);
  for (let m = s.n - 1; m > s.depth + 1; m--) {
    const [unit] = planUnits(m, s.depth, { algorithm: s.algorithm });
    if (!unit || unit.estimate.seconds > budget || unit.estimate.bytes > FIT_MAX_BYTES) continue;
    if (unit.estimate.seconds < MIN_FIT_SECONDS) return [];
    const [below] = planUnits(m - 1, s.depth, { algorithm: s.algorithm });
    return below
      ? [
          { n: m, unit },
          { n: m - 1, unit: below },
        ]
      : [{ n: m, unit }];
  }
  return [];
}

/** How each transfer stratum (by index into `strata`) is costed; see the file's comment. */
export function transferCostings(
  strata: readonly (TransferStratum | undefined)[],
  planModel: number,
): Map<number, TransferCosting> {
  const costings = new Map<number, TransferCosting>();
  const transfers = strata.flatMap((s, i) => (s ? [{ s, i }] : []));
  const tiny = (s: TransferStratum) =>
    s.modelSeconds <= Math.min(WHOLE_SECONDS, WHOLE_SHARE * planModel);
  for (const n of new Set(transfers.map(({ s }) => s.n))) {
    const largest = transfers
      .filter(({ s }) => s.n === n && !tiny(s))
      .sort((a, b) => b.s.modelSeconds - a.s.modelSeconds)[0];
    if (!largest) continue;
    const points = fitPoints(largest.s, planModel);
    if (points.length > 0) costings.set(largest.i, { kind: 'fitted', points });
  }
  const fitted = [...costings.keys()];
  for (const { s, i } of transfers) {
    if (costings.has(i)) continue;
    // The fitted transfer nearest in n, then in D; none (a small plan): run whole.
    const by = fitted
      .map((f) => ({ f, t: strata[f] as TransferStratum }))
      .sort(
        (a, b) =>
          Math.abs(a.t.n - s.n) - Math.abs(b.t.n - s.n) ||
          Math.abs(a.t.depth - s.depth) - Math.abs(b.t.depth - s.depth),
      )[0];
    costings.set(i, tiny(s) || !by ? { kind: 'whole' } : { kind: 'priced', by: by.f });
  }
  return costings;
}

/** A fitted transfer's run at a smaller n: its model and measured seconds. */
export interface FitRun {
  readonly n: number;
  readonly model: number;
  readonly seconds: number;
}

/** The rate of a fitted transfer (its larger run's) and its spread (one σ of the rate). */
export function fittedRate(runs: readonly FitRun[]): {
  rate: number;
  spread: number;
  rates: { n: number; rate: number }[];
} {
  const rates = runs
    .map((r) => ({ n: r.n, rate: r.model > 0 ? r.seconds / r.model : 1 }))
    .sort((a, b) => b.n - a.n);
  const rate = rates[0]?.rate ?? 1;
  // The next smaller n says how far the rate still moves with n: one σ.
  const second = rates[1];
  return { rate, spread: second ? Math.abs(rate - second.rate) : rate / 2, rates };
}
