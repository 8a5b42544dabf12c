// Submission: plans a sweep for the cluster there is, records it, and adds one flow per n that
// is neither stored nor queued (taking each n's submit lock, so two submitters add it once).
import type { FlowJob } from 'bullmq';
import { type Problem as ProblemId, PROTOCOL_VERSION } from '../contracts/index.js';
import type { SweepRecord, WorkerInfo } from './sweep-registry.js';
import { type UnitRouting, unitRouting } from './unit-routing.js';
import type { ClusterDescription } from './cluster-plan.js';
import { SubmitLock } from './submit-lock.js';
import { type FlowCleanup, flowQueues } from './flow-cleanup.js';
import type { PipelineParts } from './pipeline-parts.js';
import { problemNamed } from './problems/index.js';
import type { PlannedFlow, Problem, ProblemPlan, SubmitOptions } from './problems/problem.js';

export { newSweepId } from './problems/weak-queens.js';
export type { PlanningStep } from './problems/problem.js';

/** What became of one n of a submission (a classic one lists its units too). */
export interface SizeOutcome {
  readonly n: number;
  readonly outcome: 'stored' | 'queued' | 'added';
  readonly jobs: number;
  readonly units?: number;
}

export interface SweepSubmission {
  readonly sweep: SweepRecord;
  /** Jobs added to the queues by this submission. */
  readonly added: number;
  readonly sizes: readonly SizeOutcome[];
  /** Seconds spent planning (kernel estimates, plan records) and adding the flows. */
  readonly timing: { readonly planSeconds: number; readonly enqueueSeconds: number };
  /**
   * Set when no worker of this build's protocol was live, but some of another were: none of
   * them will take this sweep's jobs (they wait for a worker of this build).
   */
  readonly otherProtocolOnly?: readonly WorkerInfo[];
}

/**
 * How long a submitter's mark lasts unless renewed (a third of it between renewals): a sweep
 * whose submitter died reads as interrupted this long after.
 */
const SUBMITTING_TTL_MS = 6000;

/**
 * The most jobs a submission adds in one round trip (`addAllAtOnce`): a sweep of n ≤ 13 plans
 * a few hundred; a larger one goes n by n, two flows in flight, so that neither this process
 * nor Redis holds the whole sweep's jobs at once.
 */
const BULK_JOBS = 2000;

/** A planned sweep's flows, and whether stored n are counted again on purpose (a recount). */
type FlowsToAdd = Pick<ProblemPlan, 'flows' | 'recount'>;

/** What both ways of adding a sweep's flows share (see `addFlows`). */
interface AddContext {
  readonly locks: SubmitLock;
  /** Whether each n's sum job was waiting or running when the submission began. */
  readonly queued: ReadonlyMap<number, Promise<boolean>>;
  /** Told the n that are in Redis (added, found queued, or stored), as they land. */
  readonly onQueued: (ns: readonly number[]) => Promise<void>;
}

export class SweepSubmitter {
  constructor(
    private readonly parts: PipelineParts,
    private readonly cleanup: FlowCleanup,
  ) {}

  /**
   * Enqueues every n of a sweep of `problem` (default weak) that is neither stored nor already
   * queued; returns what it did.
   */
  async submit(
    ns: readonly number[],
    options: SubmitOptions & { readonly problem?: ProblemId } = {},
  ): Promise<SweepSubmission> {
    await this.parts.ping();
    const problem = problemNamed(options.problem ?? 'weak');
    const id = options.sweepId ?? problem.newSweepId();
    const sizes: SizeOutcome[] = [];
    // Plan every n before adding any, so the workers see the whole sweep's priorities at once.
    const planStarted = performance.now();
    const live = await this.parts.registry.liveWorkers();
    const others = live.length === 0 ? await this.parts.registry.otherProtocolWorkers() : [];
    const routing = this.routingFor(live);
    const cluster = options.cluster ?? this.clusterOf(live, routing);
    const plan = await problem.plan(this.parts, ns, { ...options, sweepId: id, cluster, routing });
    const units = Object.fromEntries(plan.flows.map((p) => [String(p.n), p.units]));
    const enqueueStarted = performance.now();
    // The record exists before the first job is queued and says, n by n, what was: a submitter
    // that dies half-way (Ctrl-C, a hangup) leaves a sweep that `wq status` shows as interrupted
    // and `wq retry` finishes, not jobs that belong to no sweep.
    const existing = options.sweepId ? await this.parts.registry.find(options.sweepId) : undefined;
    const queued: number[] = [];
    // On the Redis server's clock, as progress reads it: elapsed time is not off by this host's.
    const createdAt =
      existing?.createdAt ?? new Date((await this.parts.registry.clock()).redisMs).toISOString();
    const { targetSeconds, estimates, ...marks } = plan.record;
    const record = (): SweepRecord => ({
      id,
      ns: [...ns],
      createdAt,
      targetSeconds,
      units,
      ...(estimates ? { estimates } : {}),
      ...marks,
      queued: [...queued],
      protocol: PROTOCOL_VERSION,
    });
    await this.parts.registry.markSubmitting(id, SUBMITTING_TTL_MS);
    await this.parts.registry.save(record());
    const lease = setInterval(() => {
      this.parts.registry.markSubmitting(id, SUBMITTING_TTL_MS).catch(() => undefined);
    }, SUBMITTING_TTL_MS / 3);
    lease.unref();
    try {
      await this.addFlows(problem, id, plan, sizes, async (landed) => {
        queued.push(...landed);
        await this.parts.registry.save(record());
        const what = landed.length === 1 ? `n = ${landed[0]}` : `${landed.length} n`;
        options.onPlanning?.({ what: `queued ${what}, ${queued.length} of ${ns.length} n` });
      });
    } finally {
      clearInterval(lease);
    }
    const sweep: SweepRecord = { ...record(), submittedAt: new Date().toISOString() };
    await this.parts.registry.save(sweep);
    await this.parts.registry.doneSubmitting(id);
    const added = sizes.reduce((sum, size) => sum + size.jobs, 0);
    const timing = {
      planSeconds: (enqueueStarted - planStarted) / 1000,
      enqueueSeconds: (performance.now() - enqueueStarted) / 1000,
    };
    return { sweep, added, sizes, timing, ...(others.length ? { otherProtocolOnly: others } : {}) };
  }

  /**
   * The cluster a sweep is planned for: the live workers (the most slots and memory among them:
   * a unit is planned to fit the largest), each slot capped at WQ_MAX_UNIT_BYTES; with none
   * live, one worker like this machine's default.
   */
  async cluster(): Promise<ClusterDescription> {
    const live = await this.parts.registry.liveWorkers();
    return this.clusterOf(live, this.routingFor(live));
  }

  /** Which units go to `count`, and the largest unit a plan may make (see `unitRouting`). */
  async routing(): Promise<UnitRouting> {
    return this.routingFor(await this.parts.registry.liveWorkers());
  }

  private routingFor(live: readonly WorkerInfo[]): UnitRouting {
    return unitRouting(live, this.parts.config);
  }

  private clusterOf(live: readonly WorkerInfo[], routing: UnitRouting): ClusterDescription {
    // A slot holds units up to the routing's slot memory; a window transfer, alone on all of
    // a worker's slots, up to its worker memory.
    const memory = {
      slotMemoryBytes: routing.slotMemoryBytes,
      workerMemoryBytes: routing.workerMemoryBytes,
    };
    if (live.length === 0) return { workers: 1, slots: this.parts.config.concurrency, ...memory };
    const slots = Math.max(...live.map((w) => w.concurrency));
    return { workers: live.length, slots, ...memory };
  }

  /** Adds the flow of every planned n that is neither stored nor queued; notes each outcome. */
  private async addFlows(
    problem: Problem,
    sweepId: string,
    plan: FlowsToAdd,
    sizes: SizeOutcome[],
    /** Told the n that are in Redis (added, found queued, or stored), as they land. */
    onQueued: (ns: readonly number[]) => Promise<void>,
  ): Promise<void> {
    const locks = new SubmitLock(this.parts.redis, this.parts.store.keys, sweepId);
    // Whether each n is queued already, read for all at once: one round trip, not one per n
    // (read again where another submitter holds an n's lock).
    const queued = new Map(
      plan.flows
        .filter((p) => p.flow)
        .map((p) => [p.n, this.cleanup.isQueued(problem.sumJobId(p.n))] as const),
    );
    for (const read of queued.values()) read.catch(() => undefined);
    if (await this.addAllAtOnce(problem, plan, sizes, { locks, queued, onQueued })) return;
    await this.addOneByOne(problem, plan, sizes, { locks, queued, onQueued });
  }

  /**
   * A sweep of at most BULK_JOBS jobs goes in as one: every n's lock in one round trip, one
   * read of what is stored or queued, and every n's flow sent at once. (N by n, each
   * n took five round trips, and the workers saw the last n a fifth of a second after the
   * first on a sweep of n ≤ 12.) False, with nothing taken or added, when an n's lock is held
   * by another submitter or the sweep is larger: then `addOneByOne` does it.
   */
  private async addAllAtOnce(
    problem: Problem,
    plan: FlowsToAdd,
    sizes: SizeOutcome[],
    { locks, queued, onQueued }: AddContext,
  ): Promise<boolean> {
    const planned = [...plan.flows].sort((a, b) => a.n - b.n);
    if (planned.reduce((sum, p) => sum + p.jobs, 0) > BULK_JOBS) return false;
    const outcomes = new Map<number, SizeOutcome>();
    const listed = (p: PlannedFlow): { units?: number } =>
      problem.listsUnits ? { units: p.units } : {};
    const note = (p: PlannedFlow, outcome: 'stored' | 'queued'): void => {
      outcomes.set(p.n, { n: p.n, outcome, jobs: 0, ...listed(p) });
    };
    const open: PlannedFlow[] = [];
    for (const p of planned) {
      if (!p.flow) note(p, 'stored');
      else if (await (queued.get(p.n) ?? this.cleanup.isQueued(problem.sumJobId(p.n)))) {
        note(p, 'queued');
      } else open.push(p);
    }
    const taken = await Promise.all(open.map((p) => locks.tryAcquire(p.n)));
    const releases = taken.filter((release) => release !== undefined);
    try {
      if (releases.length < taken.length) {
        // Another submitter holds some n: give back what was taken (holding some n while
        // waiting for others could wait in a circle) and go n by n, in ascending n.
        return false;
      }
      // Planned before this submitter held the locks: another one may have finished or queued
      // an n since (a recount counts a stored n on purpose).
      const ns = open.map((p) => p.n);
      const [stored, states] = await Promise.all([
        plan.recount ? new Map() : problem.results(this.parts, ns),
        Promise.all(ns.map((n) => this.parts.queues.aggregate.getJobState(problem.sumJobId(n)))),
      ]);
      const adding: (PlannedFlow & { readonly flow: FlowJob })[] = [];
      for (const [i, p] of open.entries()) {
        const state = states[i] ?? 'unknown';
        if (stored.has(p.n)) note(p, 'stored');
        else if (
          state !== 'unknown' &&
          !(await this.cleanup.removeIfFinished(problem.sumJobId(p.n), state))
        ) {
          note(p, 'queued');
        } else if (p.flow) adding.push({ ...p, flow: p.flow });
      }
      await Promise.all(adding.map((p) => this.cleanup.removeFinishedJobs(p.flow)));
      const queues = new Set<string>();
      for (const p of adding) flowQueues(p.flow, queues);
      await this.parts.queues.count.register(queues);
      // One transaction per n, all sent at once (one round trip): the workers start on the
      // first n while Redis still adds the others (in one transaction, a sweep of n ≤ 12 kept
      // them waiting 20–25 ms for its 90 jobs). Each n is whole or absent, as n by n.
      const added = await Promise.allSettled(adding.map((p) => this.parts.flows.add(p.flow)));
      const failed = added.find((a) => a.status === 'rejected');
      for (const [i, p] of adding.entries()) {
        if (added[i]?.status !== 'fulfilled') continue;
        outcomes.set(p.n, { n: p.n, outcome: 'added', jobs: p.jobs, ...listed(p) });
      }
      if (failed) {
        // What landed is recorded (the sweep's `queued`), so `wq retry` adds only the rest.
        await onQueued([...outcomes.keys()]);
        throw failed.reason;
      }
      sizes.push(...[...outcomes.values()].sort((a, b) => a.n - b.n));
      await onQueued(planned.map((p) => p.n));
      return true;
    } finally {
      await Promise.all(releases.map((release) => release()));
    }
  }

  /** Adds the flows n by n, each under its lock (see `addAllAtOnce` for when). */
  private async addOneByOne(
    problem: Problem,
    plan: FlowsToAdd,
    sizes: SizeOutcome[],
    { locks, queued, onQueued }: AddContext,
  ): Promise<void> {
    // Two flows in flight at most: Redis runs one flow's transaction while this process builds
    // the next one's (more would only hold more of them in memory at once).
    let previous: Promise<unknown> = Promise.resolve();
    let inFlight: number | undefined;
    const landed = async (): Promise<void> => {
      await previous;
      if (inFlight !== undefined) await onQueued([inFlight]);
      inFlight = undefined;
    };
    // Whether an n is queued, and adding it if not, is one step for all submitters at once. The
    // locks are taken as the n come, in ascending n (two submitters never wait for each other
    // in a circle), and held to the end.
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const planned of [...plan.flows].sort((a, b) => a.n - b.n)) {
        await this.addFlow(
          problem,
          { planned, recount: plan.recount, queued: queued.get(planned.n) },
          sizes,
          { locks, releases, onQueued: (n) => onQueued([n]), landed },
          async (adding) => {
            await landed();
            previous = adding;
            inFlight = planned.n;
          },
        );
      }
      await landed();
    } finally {
      await Promise.all(releases.map((release) => release()));
    }
  }

  /** One n of `addFlows`; `adding` is given the add when it starts one. */
  private async addFlow(
    problem: Problem,
    {
      planned,
      recount,
      queued,
    }: {
      readonly planned: PlannedFlow;
      readonly recount: boolean;
      /** Whether its sum job was waiting or running when the submission began. */
      readonly queued?: Promise<boolean>;
    },
    sizes: SizeOutcome[],
    held: {
      readonly locks: SubmitLock;
      readonly releases: (() => Promise<void>)[];
      readonly onQueued: (n: number) => Promise<void>;
      /** Waits for the flow in flight and records it. */
      readonly landed: () => Promise<void>;
    },
    adding: (add: Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    const { n } = planned;
    const sumId = problem.sumJobId(n);
    // A classic submission has always listed each n's units.
    const listed = problem.listsUnits ? { units: planned.units } : {};
    const handled = (outcome: 'stored' | 'queued'): Promise<void> => {
      sizes.push({ n, outcome, jobs: 0, ...listed });
      return held.onQueued(n);
    };
    if (!planned.flow) return handled('stored');
    // Already in the queues (a retry after an interrupted submission finds most n so): nothing
    // to add, so no lock to wait for (that of a submitter that died lapses only after a minute).
    if (await (queued ?? this.cleanup.isQueued(sumId))) return handled('queued');
    let release = await held.locks.tryAcquire(n);
    if (release === undefined) {
      // Another submitter may have added it since the read above.
      if (await this.cleanup.isQueued(sumId)) return handled('queued');
      // Another submitter holds n: what is in flight lands (and is recorded) before the wait.
      await held.landed();
      release = await held.locks.acquire([n]);
    }
    held.releases.push(release);
    // A flow whose root exists would add its children a second time (BullMQ adds children
    // of a duplicate parent), so an n already in the queues is left alone. A finished root
    // without a stored result (deleted by hand, withdrawn by a recount, or failed) is stale:
    // it goes, with what is left of its flow, and the n is planned afresh.
    // Planned before this submitter held the lock: another one may have finished n since
    // (a recount counts a stored n on purpose).
    const [stored, state] = await Promise.all([
      recount ? false : problem.results(this.parts, [n]).then((results) => results.has(n)),
      this.parts.queues.aggregate.getJobState(sumId),
    ]);
    if (stored) return handled('stored');
    if (state !== 'unknown' && !(await this.cleanup.removeIfFinished(sumId, state))) {
      return handled('queued');
    }
    await this.cleanup.removeFinishedJobs(planned.flow);
    await this.parts.queues.count.register(flowQueues(planned.flow));
    const add = this.parts.flows.add(planned.flow);
    // Awaited once the next n has started; until then its failure is not yet unhandled.
    add.catch(() => undefined);
    await adding(add);
    sizes.push({ n, outcome: 'added', jobs: planned.jobs, ...listed });
  }
}
