// `wq verify`: a recount of stored results by a second algorithm, compared D by D; with
// `repair`, what disagrees is counted afresh by both and published only if they agree.
import { isLeftAlone, type Mismatch, sumJobId } from '../contracts/index.js';
import type { FlowCleanup } from './flow-cleanup.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { Disagreement } from './result-store.js';
import type { SweepControl } from './sweep-control.js';
import { SweepFailedError } from './errors.js';
import type { SweepSubmitter } from './sweep-submitter.js';

/** What `wq verify` found for one n. */
export interface VerifyOutcome {
  readonly n: number;
  /**
   * `verified`: every stored N(n, D) agreed with a recount; `repaired`: a disagreement was
   * counted afresh and both algorithms now agree; `disagrees`: S(n) was withdrawn, both values
   * kept (or units were counted twice with two values); `missing`: nothing stored to verify;
   * `unreadable`: records this build cannot read (another build's, or written by hand), left
   * alone with S(n) as it was (`reason` names them).
   */
  readonly outcome: 'verified' | 'repaired' | 'disagrees' | 'missing' | 'unreadable';
  readonly S?: string;
  readonly mismatch?: Mismatch;
  readonly disagreements?: readonly Disagreement[];
  readonly reason?: string;
}

export class Recount {
  constructor(
    private readonly parts: PipelineParts,
    private readonly cleanup: FlowCleanup,
    private readonly submitter: SweepSubmitter,
    private readonly control: SweepControl,
  ) {}

  /**
   * `wq verify`: every stored N(n, D) of these n is counted again by a second algorithm (on
   * another worker where there is one) and compared. S(n) stays published only when every D
   * agrees; a disagreement withdraws it and keeps both values (see `wq status`). With `repair`,
   * a disagreeing n (and any unit counted twice with two values) is counted afresh by both
   * algorithms and published only if they agree.
   */
  async verify(
    ns: readonly number[],
    options: { repair?: boolean } = {},
  ): Promise<VerifyOutcome[]> {
    await this.parts.ping();
    // Whatever is stored is recounted, including an S(n) that no longer holds (forged, or
    // beside a record that says otherwise): a reader already refuses to show that one.
    const sums = new Set(await this.parts.store.storedSizes(ns));
    const conflicts = await this.parts.store.disagreements();
    const repaired = new Set<number>();
    if (options.repair) {
      for (const c of conflicts.filter((d) => ns.includes(d.n))) {
        if ((await this.parts.store.forgetDisagreements(c.n, c.depth)) > 0) repaired.add(c.n);
      }
    }
    // An n whose S(n) an earlier recount withdrew: --repair counts it afresh, else it is
    // reported as it stands.
    const withdrawn = new Map<number, Mismatch>();
    for (const n of ns.filter((k) => !sums.has(k))) {
      const mismatch = await this.parts.store.mismatch(n);
      if (mismatch) withdrawn.set(n, mismatch);
    }
    if (options.repair) for (const n of withdrawn.keys()) repaired.add(n);
    const stored = ns.filter((n) => sums.has(n) || repaired.has(n));
    const outcomes = new Map<number, VerifyOutcome>();
    for (const n of ns) {
      if (stored.includes(n)) continue;
      const mismatch = withdrawn.get(n);
      outcomes.set(n, mismatch ? { n, outcome: 'disagrees', mismatch } : { n, outcome: 'missing' });
    }
    if (stored.length === 0) return ns.map((n) => outcomes.get(n) ?? { n, outcome: 'missing' });
    for (const n of stored) await this.parts.store.forgetChecks(n);
    const submission = await this.submitter.submit(stored, { audit: true });
    const id = submission.sweep.id;
    let settled = await this.settleRecount(id, stored);
    const mismatches = new Map<number, Mismatch>();
    for (const [n, result] of settled) if (result.mismatch) mismatches.set(n, result.mismatch);
    // An n whose records could not be read failed for no value: counting it afresh settles
    // nothing, and what is published of it stays.
    const failed = [...settled]
      .filter(([, r]) => r.S === undefined && !isLeftAlone(r.reason ?? ''))
      .map(([n]) => n);
    if (options.repair && failed.length > 0) {
      // The disagreeing counts were forgotten when the recount failed: count both afresh, and
      // wait for that count's own outcome, not the disagreement that started it.
      const seen = new Map(failed.map((n) => [n, mismatches.get(n)?.at]));
      await this.control.retry(id);
      settled = await this.settleRecount(id, stored, seen);
      for (const n of failed) repaired.add(n);
    }
    for (const [n, result] of settled) {
      const mismatch = mismatches.get(n) ?? withdrawn.get(n);
      const unit = conflicts.filter((c) => c.n === n);
      const evidence = {
        ...(mismatch ? { mismatch } : {}),
        ...(unit.length ? { disagreements: unit } : {}),
      };
      if (result.S !== undefined) {
        const outcome = repaired.has(n) ? 'repaired' : unit.length ? 'disagrees' : 'verified';
        outcomes.set(n, { n, outcome, S: result.S, ...evidence });
      } else if (result.reason !== undefined && isLeftAlone(result.reason) && !mismatch) {
        const S = (await this.parts.store.sums([n])).get(n);
        outcomes.set(n, {
          n,
          outcome: 'unreadable',
          ...(S === undefined ? {} : { S }),
          ...evidence,
          reason: result.reason,
        });
      } else {
        outcomes.set(n, {
          n,
          outcome: 'disagrees',
          ...evidence,
          ...(result.reason ? { reason: result.reason } : {}),
        });
      }
    }
    return ns.map((n) => outcomes.get(n) ?? { n, outcome: 'missing' });
  }

  /**
   * Waits until this sweep has settled every n of a recount: S(n) published again by it (its
   * record names the sweep), or a disagreement recorded by it, or its sum job failed. A stored
   * S(n) alone says nothing here: it was there before the recount began.
   */
  private async settleRecount(
    sweepId: string,
    ns: readonly number[],
    /** Per n, the disagreement this sweep recorded before: not an outcome of the retry. */
    seen: ReadonlyMap<number, string | undefined> = new Map(),
    intervalMs = 250,
  ): Promise<Map<number, { S?: string; mismatch?: Mismatch; reason?: string }>> {
    const settled = new Map<number, { S?: string; mismatch?: Mismatch; reason?: string }>();
    for (;;) {
      for (const n of ns.filter((k) => !settled.has(k))) {
        const record = await this.parts.store.record(n);
        if (record?.sweepId === sweepId) {
          settled.set(n, { S: record.S });
          continue;
        }
        const mismatch = await this.parts.store.mismatch(n);
        if (mismatch?.sweepId === sweepId && mismatch.at !== seen.get(n)) {
          settled.set(n, { mismatch });
          continue;
        }
        const job = await this.parts.queues.aggregate.getJob(sumJobId(n));
        const state = job ? await job.getState() : 'unknown';
        if (state === 'failed') settled.set(n, { reason: await this.cleanup.rootCause(job) });
        if (state === 'unknown') {
          throw new SweepFailedError(sweepId, n, 'its jobs were removed (cancelled)');
        }
      }
      if (settled.size === ns.length) return settled;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
