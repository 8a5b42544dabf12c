// The Redis key layout of everything that is not a BullMQ queue: results, sweeps and workers.
// Every key starts with the configured prefix, so a Redis Cluster hash tag such as `{wq}` puts
// them (and the queues, which use the same prefix) in one slot.

export interface StoreKeys {
  /** Hash n → S(n). */
  readonly sums: string;
  /** Hash n → CompletionRecord JSON. */
  readonly records: string;
  /** Hash D → DepthResult JSON for one n. */
  depths(n: number): string;
  /** Hash unit key → UnitResult JSON for one (n, D). */
  units(n: number, depth: number): string;
  /** Sorted set of sweep ids by creation time. */
  readonly sweeps: string;
  /** String: SweepRecord JSON. */
  sweep(id: string): string;
  /** Hash n → completion time, for the n of one sweep that are done. */
  sweepDone(id: string): string;
  /** String with a short expiry, renewed while a submitter is adding the sweep's flows. */
  sweepSubmitting(id: string): string;
  /** Sorted set of worker ids by last heartbeat (ms). */
  readonly workers: string;
  /** Hash worker id → WorkerInfo JSON. */
  readonly workerInfo: string;
  /**
   * Hash worker id → its clock minus the Redis server's (ms) at its last heartbeat; kept after
   * the worker has gone, so its stored unit times can still be put on the server's clock.
   */
  readonly workerClocks: string;
  /** Hash D → DepthResult JSON of the second algorithm's count (`wq sweep --verify`). */
  checkDepths(n: number): string;
  /** Hash unit key → UnitResult JSON of the second algorithm's units. */
  checkUnits(n: number, depth: number): string;
  /** Hash n → Mismatch JSON: why S(n) was not published. */
  readonly mismatches: string;
  /** Hash `<algorithm>:units|model|actual` → sums over stored units (see calibration.ts). */
  readonly calibration: string;
  /** Hash unit key → planned unit, plus '#' → plan header: one recorded plan of an (n, D). */
  plan(n: number, depth: number, planId: string): string;
  /** Hash `n:D:role:unit` → Disagreement JSON: a unit counted twice with two values. */
  readonly disagreements: string;
  /**
   * Hash of fault counters: `starts` (units the workers began to count) and `duplicates`
   * (units counted again with the same value). Starts beyond the stored units are re-runs.
   */
  readonly counters: string;
  /** String: the token of the submitter checking and adding the flow of n (see SubmitLock). */
  submitLock(n: number): string;
}

export function storeKeys(prefix: string): StoreKeys {
  return {
    sums: `${prefix}:results:S`,
    records: `${prefix}:results:records`,
    depths: (n) => `${prefix}:results:N:${n}`,
    units: (n, depth) => `${prefix}:results:units:${n}:${depth}`,
    sweeps: `${prefix}:sweeps`,
    sweep: (id) => `${prefix}:sweep:${id}`,
    sweepDone: (id) => `${prefix}:sweep:${id}:done`,
    sweepSubmitting: (id) => `${prefix}:sweep:${id}:submitting`,
    workers: `${prefix}:workers`,
    workerInfo: `${prefix}:workers:info`,
    workerClocks: `${prefix}:workers:clock`,
    calibration: `${prefix}:results:calibration`,
    checkDepths: (n) => `${prefix}:results:check:N:${n}`,
    checkUnits: (n, depth) => `${prefix}:results:check:units:${n}:${depth}`,
    mismatches: `${prefix}:results:mismatches`,
    plan: (n, depth, planId) => `${prefix}:plan:${n}:${depth}:${planId}`,
    disagreements: `${prefix}:results:disagreements`,
    counters: `${prefix}:results:counters`,
    submitLock: (n) => `${prefix}:lock:submit:${n}`,
  };
}
