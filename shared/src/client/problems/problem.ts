// A problem the pipeline computes, as the client sees it: how a sweep of it is planned into
// flows, what its stored results are, how its progress is read, and how it is submitted again.
// One module per problem implements this; problems/index.ts registers them.
import type { FlowJob } from 'bullmq';
import type { Problem as ProblemId, ProblemRegistration } from '../../contracts/problems.js';
import type { ClassicResultStore } from '../classic-result-store.js';
import type { ClusterDescription } from '../cluster-plan.js';
import type { RedisClient } from '../connection.js';
import type { PipelineParts } from '../pipeline-parts.js';
import type { QueueState } from '../queue-state.js';
import type { ResultStore } from '../result-store.js';
import type { ProgressQueues, ProgressReadOptions, SweepProgress } from '../sweep-progress.js';
import type { SweepRecord, SweepRegistry } from '../sweep-registry.js';
import type { UnitRouting } from '../unit-routing.js';

/** What a submission is doing, and how far its planning is (0 to 1; none once queuing). */
export interface PlanningStep {
  readonly what: string;
  readonly fraction?: number;
}

/** How a sweep is submitted (each problem reads the options that apply to it). */
export interface SubmitOptions {
  readonly targetSeconds?: number;
  readonly sweepId?: string;
  readonly verify?: boolean;
  readonly audit?: boolean;
  /** A classic sweep's sample of units counted a second time (with `verify`). */
  readonly sample?: number;
  /** Plan for this cluster rather than the live workers (e.g. one about to be started). */
  readonly cluster?: ClusterDescription;
  /** Queue it even when estimated beyond WQ_MAX_SWEEP_CORE_SECONDS (`--allow-huge`). */
  readonly allowHuge?: boolean;
  /** Told as planning moves on, so that long planning need not be a silence. */
  readonly onPlanning?: (step: PlanningStep) => void;
}

/** What a plan is made for: the sweep, and the cluster and routing of the live workers. */
export interface PlanContext extends SubmitOptions {
  readonly sweepId: string;
  readonly cluster: ClusterDescription;
  readonly routing: UnitRouting;
}

/** One n of a plan: its flow (absent when stored), the jobs in it and its units. */
export interface PlannedFlow {
  readonly n: number;
  readonly flow?: FlowJob;
  readonly jobs: number;
  readonly units: number;
}

/** A sweep planned: a flow per n, and what its sweep record says besides ns and units. */
export interface ProblemPlan {
  readonly flows: readonly PlannedFlow[];
  readonly record: Pick<
    SweepRecord,
    'targetSeconds' | 'estimates' | 'verify' | 'problem' | 'sample'
  >;
  /** True when stored n are planned on purpose (a recount): not skipped for being stored. */
  readonly recount: boolean;
}

/** What a progress read of a problem's sweeps works through. */
interface ProgressDeps {
  readonly redis: RedisClient;
  readonly store: ResultStore;
  readonly classic: ClassicResultStore;
  readonly registry: SweepRegistry;
  readonly queues: ProgressQueues;
}

/**
 * Reads what the store holds of these sweeps (sent right after the one read of the queues) and
 * returns how each sweep's progress follows from it and from that queue read.
 */
export type ProblemProgressRead = (
  sweeps: readonly SweepRecord[],
  options: ProgressReadOptions,
) => Promise<(sweep: SweepRecord, queues: QueueState, now: number) => Promise<SweepProgress>>;

export interface Problem<Result = unknown> {
  readonly id: ProblemId;
  /** Its job names, id prefix, store space and references (contracts/problems.ts). */
  readonly registration: ProblemRegistration;
  /** Whether a submission lists each n's units beside its jobs (classic's always has). */
  readonly listsUnits: boolean;
  /** Whether a sample of units may be counted a second time (`--sample` with `--verify`). */
  readonly samples: boolean;
  /** A fresh sweep id of this problem. */
  readonly newSweepId: () => string;
  /** The root of n's flow in `aggregate`: done when n's result is published. */
  readonly sumJobId: (n: number) => string;
  /** A flow per n that is not stored (or, recounting, every n), with the sweep's record. */
  plan(parts: PipelineParts, ns: readonly number[], context: PlanContext): Promise<ProblemPlan>;
  /** The stored results of these n (absent where none holds). */
  results(parts: PipelineParts, ns: readonly number[]): Promise<Map<number, Result>>;
  /** Whether every n has a result stored, unchecked: one command, a hint to read `results`. */
  resultsStored(parts: PipelineParts, ns: readonly number[]): Promise<boolean>;
  /** Units of n counted so far (first counts). */
  countedUnits(parts: PipelineParts, n: number): Promise<number>;
  /** How a sweep of it is submitted again under its id (`wq retry`, `wq replan`). */
  resubmitOptions(sweep: SweepRecord): SubmitOptions;
  /** How its sweeps' progress is read. */
  progress(deps: ProgressDeps): ProblemProgressRead;
}
