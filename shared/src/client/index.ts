// @weak-queens/shared/client: the one pipeline client (submit, plan, status, results, cancel,
// retry, verify) and the Redis-backed pieces it is made of: the result store, the sweep
// registry, connections and the logger. The CLI, the worker, the dashboard, bench and tests
// all reach Redis through here.
export { PipelineClient, type SizeResults, type StatusReport } from './pipeline-client.js';
export { newSweepId, type PlanningStep, type SweepSubmission } from './sweep-submitter.js';
export type { VerifyOutcome } from './recount.js';
export { problemNamed } from './problems/index.js';
export type { Problem, SubmitOptions } from './problems/problem.js';
export { SweepProgressReader } from './sweep-progress-reader.js';
// Every shape a progress report is made of (sweep, size, depth, timing, unfit unit).
export type * from './sweep-progress.js';
export {
  duration,
  HugeSweepError,
  ImportRefusedError,
  type RefusedLine,
  SweepFailedError,
} from './errors.js';
export { resultsCsv, resultsJsonLine } from './result-formats.js';
export {
  type ClusterDescription,
  type ClusterPlan,
  type ClusterPlanOptions,
  type DepthPlanSummary,
  type SizePlanSummary,
  planForCluster,
  simulateMakespan,
  replayMakespan,
  type RecordedUnit,
} from './cluster-plan.js';
export {
  planCheck,
  planDepth,
  planSize,
  type PlannedDepth,
  type PlannedSize,
  type PlannedUnit,
  type SweepPlanOptions,
} from './sweep-planner.js';
export { CountQueues } from './count-queues.js';
export { advertisedMemory, type UnitRouting, unitRouting } from './unit-routing.js';
export { PRIORITY_LIMIT, unitPriority } from './priority.js';
export { countFromStore, provenDepths, type StoredCount } from './stored-counts.js';
export {
  classicResultMessage,
  classicUnitMessage,
  depthMessage,
  ResultSeal,
  resultSealOf,
  sumMessage,
  unitMessage,
} from './result-seal.js';
export {
  FORGED_REASON,
  ResultStore,
  type ResultStoreOptions,
  type Role,
  type PutUnitOutcome,
  type Disagreement,
  type StoredSize,
} from './result-store.js';
export { estimateSweepSeconds, type SweepEstimateOptions } from './sweep-estimate.js';
export {
  CLOCK_SKEW_WARN_MS,
  describeSizes,
  type NotQueued,
  notQueuedLine,
  SweepRegistry,
  parseSweepRecord,
  type SweepRecord,
  type WorkerInfo,
  WORKER_TTL_MS,
} from './sweep-registry.js';
export {
  redisOptions,
  clusterOptions,
  createRedis,
  bullConnection,
  type RedisClient,
  type ConnectionRole,
  isConnectionError,
  workerRetryDelay,
} from './connection.js';
export {
  probeRedis,
  waitForRedis,
  isOutage,
  evictionPolicy,
  RedisUnavailableError,
  type RedisProblem,
  type WaitForRedisOptions,
} from './redis-probe.js';
export { OutageRider, type OutageRiderOptions, outageReason } from './outage-rider.js';
export { freePort } from './free-port.js';
export { fulfilsWithin } from './fulfils-within.js';
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { bullmq } from './redis-libraries.js';
export {
  exportResults,
  importResults,
  type ImportSummary,
  type TransferLine,
  TRANSFER_PROBLEM,
} from './result-transfer.js';
export { ClassicResultStore, type PutClassicOutcome } from './classic-result-store.js';
export {
  CLASSIC_TRANSFER_PROBLEM,
  type ClassicImportSummary,
  classicExportLines,
  importClassicResults,
} from './classic-transfer.js';
export {
  type ClassicPlanOptions,
  type PlannedClassic,
  batchUnits,
  JOBS_PER_SLOT,
  planClassic,
  sampleUnits,
} from './classic-planner.js';
