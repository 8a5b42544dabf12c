// Cancel, retry and replan: take the unfinished (or failed) n of a sweep out of the queues and,
// for retry and replan, submit the sweep again under its id (stored results are skipped).
import { InvalidInputError, PROTOCOL_VERSION, protocolOf } from '../contracts/index.js';
import type { FlowCleanup } from './flow-cleanup.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { SweepProgressReader } from './sweep-progress-reader.js';
import { describeSizes, type SweepRecord } from './sweep-registry.js';
import { problemOf } from './problems/index.js';
import type { SweepSubmission, SweepSubmitter } from './sweep-submitter.js';

export class SweepControl {
  constructor(
    private readonly parts: PipelineParts,
    private readonly cleanup: FlowCleanup,
    private readonly submitter: SweepSubmitter,
    private readonly progressReader: () => SweepProgressReader,
  ) {}

  /**
   * Removes the unfinished n of a sweep from the queues. Units already running cannot be
   * removed while locked: they finish (their values are kept) and are removed after, within
   * `timeoutMs`. Returns the sizes removed and those still left.
   */
  async cancel(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<{ removed: number[]; left: number[] }> {
    const sweep = ownSweep(await this.parts.registry.get(sweepId));
    await this.parts.registry.save({ ...sweep, cancelledAt: new Date().toISOString() });
    return this.cleanup.removeSizes(
      sweep,
      await this.unfinished(sweep),
      options.timeoutMs ?? 60_000,
    );
  }

  /** Re-runs what a sweep is missing: failed or cancelled n are removed and planned again. */
  async retry(
    sweepId: string,
    options: { timeoutMs?: number } = {},
  ): Promise<{ readonly added: number }> {
    const progress = await this.progressReader().sweep(sweepId);
    ownSweep(progress.sweep);
    const broken = progress.sizes.filter((s) => s.state === 'failed').map((s) => s.n);
    return this.resubmit(progress.sweep, broken, options.timeoutMs, 'not running');
  }

  /** The n of a sweep without a stored result (S(n), or Q(n) for a classic sweep). */
  private async unfinished(sweep: SweepRecord): Promise<number[]> {
    const stored = await problemOf(sweep).results(this.parts, sweep.ns);
    return sweep.ns.filter((n) => !stored.has(n));
  }

  /**
   * Takes `ns` of a sweep out of the queues and submits the sweep again under its id (stored
   * results are skipped); an InvalidInputError when some of them are still running.
   */
  private async resubmit(
    sweep: SweepRecord,
    ns: readonly number[],
    timeoutMs = 60_000,
    expected: string,
  ): Promise<SweepSubmission> {
    const { left } = await this.cleanup.removeSizes(sweep, ns, timeoutMs);
    if (left.length) {
      throw new InvalidInputError(
        'sweep',
        sweep.id,
        `a sweep whose n = ${left.join(', ')} are ${expected}`,
      );
    }
    const problem = problemOf(sweep);
    return this.submitter.submit(sweep.ns, {
      ...problem.resubmitOptions(sweep),
      problem: problem.id,
    });
  }

  /**
   * `wq replan`: the unfinished n of a sweep are taken out of the queues (running units finish
   * first, within `timeoutMs`) and planned again for the workers live now, so units planned
   * for a worker that has gone are split or counted otherwise. Stored results are kept and
   * skipped.
   */
  async replan(sweepId: string, options: { timeoutMs?: number } = {}): Promise<SweepSubmission> {
    const sweep = ownSweep(await this.parts.registry.get(sweepId));
    const pending = await this.unfinished(sweep);
    return this.resubmit(
      sweep,
      pending,
      options.timeoutMs,
      'taken out of the queues (still running)',
    );
  }
}

/**
 * The sweep, when this build queued it: another build's jobs are in its own protocol's queues,
 * which this build neither reads nor removes, so only that build cancels, retries or replans it.
 */
function ownSweep(sweep: SweepRecord): SweepRecord {
  const protocol = protocolOf(sweep);
  if (protocol === PROTOCOL_VERSION) return sweep;
  throw new InvalidInputError(
    'sweep',
    sweep.id,
    `a sweep this build queued (protocol ${PROTOCOL_VERSION}); this one is protocol ${protocol}'s ` +
      `(another build): its wq acts on it, or wq sweep counts ${describeSizes(sweep.ns)} here`,
  );
}
