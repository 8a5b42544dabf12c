// The one reader of sweep progress: `wq status`, `wq sweep --wait`, `npm start` and the
// dashboard's API and live feed all see the same statuses, computed here. A read costs a
// constant few round trips whatever the number of (n, D): one script over the result store, one
// over the queues (sent together), and for the dashboard's per-D view one more over the jobs of
// the unfinished D. Each problem reads its own sweeps (problems/): this groups them.
import type { RedisClient } from './connection.js';
import type { ClassicResultStore } from './classic-result-store.js';
import { allProblems, problemOf } from './problems/index.js';
import type { ProblemProgressRead } from './problems/problem.js';
import { readQueueState } from './queue-state.js';
import type { ResultStore } from './result-store.js';
import type { ProgressQueues, ProgressReadOptions, SweepProgress } from './sweep-progress.js';
import type { SweepRecord, SweepRegistry } from './sweep-registry.js';

export class SweepProgressReader {
  /** Each problem's reader, made once: they keep what never changes (recorded plans). */
  private readonly readers: ReadonlyMap<string, ProblemProgressRead>;

  constructor(
    private readonly redis: RedisClient,
    private readonly store: ResultStore,
    private readonly registry: SweepRegistry,
    private readonly queues: ProgressQueues,
    classic: ClassicResultStore,
  ) {
    const deps = { redis, store, classic, registry, queues };
    this.readers = new Map(allProblems().map((problem) => [problem.id, problem.progress(deps)]));
  }

  /** One sweep (an InvalidInputError naming the known sweeps when there is no such id). */
  async sweep(id: string, options: ProgressReadOptions = {}): Promise<SweepProgress> {
    const [progress] = await this.read([await this.registry.get(id)], options);
    if (!progress) throw new Error(`sweep ${id} was read but not returned`);
    return progress;
  }

  /** The progress of these sweeps, read together. */
  async read(
    sweeps: readonly SweepRecord[],
    options: ProgressReadOptions = {},
  ): Promise<SweepProgress[]> {
    if (sweeps.length === 0) return [];
    const byProblem = new Map<string, SweepRecord[]>();
    for (const sweep of sweeps) {
      const id = problemOf(sweep).id;
      byProblem.set(id, [...(byProblem.get(id) ?? []), sweep]);
    }
    const groups = allProblems().filter((problem) => byProblem.has(problem.id));
    const sumIds = groups.flatMap((problem) => [
      ...new Set((byProblem.get(problem.id) ?? []).flatMap((s) => s.ns).map(problem.sumJobId)),
    ]);
    // Sent together on one connection, so Redis runs them in this order: the queues first. A sum
    // job completes only after S(n) is stored, so a sum job seen finished or gone here has its
    // S(n) in the store read that follows (unless it was withdrawn): never cancelled by a race.
    const [queues, ...progressOf] = await Promise.all([
      readQueueState(this.redis, this.queues, this.store.keys.workerClocks, sumIds),
      ...groups.map((problem) =>
        this.readerOf(problem.id)(byProblem.get(problem.id) ?? [], options),
      ),
    ]);
    // The Redis server's clock, which sweeps are recorded on and running units are put on.
    const now = options.now ?? queues.now;
    const of = new Map(groups.map((problem, i) => [problem.id, progressOf[i]]));
    const progress: SweepProgress[] = [];
    for (const sweep of sweeps) {
      const sweepProgress = of.get(problemOf(sweep).id);
      if (!sweepProgress) throw new Error(`sweep ${sweep.id} was read but not returned`);
      progress.push(await sweepProgress(sweep, queues, now));
    }
    return progress;
  }

  private readerOf(id: string): ProblemProgressRead {
    const reader = this.readers.get(id);
    if (!reader) throw new Error(`no progress reader for problem ${id}`);
    return reader;
  }
}
