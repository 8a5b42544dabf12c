// @weak-queens/test: helpers for cross-process and end-to-end tests.
export { startTestRedis, uniquePrefix, deletePrefix, type TestRedis } from './test-redis.js';
export {
  startWorker,
  stopWorkers,
  killHard,
  pidOfWorkerName,
  FAST_STALLS,
  type TestWorkerOptions,
} from './worker-processes.js';
export { until, sleep } from './wait.js';
export { restartableRedis } from './restart-redis.js';
export { failedReason } from './failed-reason.js';
export { spawnWatched, type WatchedChild } from './watched-child.js';
export {
  pipelineFixture,
  type OpenPipelineOptions,
  type PipelineFixture,
  type PipelineFixtureOptions,
  type PipelineWorkerOptions,
  type TestPipeline,
} from './pipeline-fixture.js';
export { canConnect } from './can-connect.js';
export { plannedBytes, unitRecords } from './unit-records.js';
export { exactSweepHosts, expectExactSweep } from './exact-sweep.js';
export {
  type FaultPipeline,
  type FaultPipelineFixture,
  faultPipelineFixture,
  openFaultPipeline,
} from './fault-pipeline.js';
export { keepTransferAt14x8 } from './transfer-at-14-8.js';
export { addLongUnit, recordOneUnitPlan } from './one-unit-plan.js';
export {
  runChaosSoak,
  FAULT_KINDS,
  type FaultKind,
  type ChaosOptions,
  type ChaosReport,
  type ChaosRound,
} from './chaos-soak.js';
export { baselineCounts, baselineN } from './baseline-counts.js';
export { stallsWhenFinished } from './stalls-when-finished.js';
