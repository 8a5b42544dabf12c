// The contracts producer and worker agree on: queues, payloads, results, keys, config, logs.
export {
  QUEUE_NAMES,
  type QueueName,
  JOB_RETENTION,
  EVENTS_MAX_LEN,
  queueStreams,
  JOB_NAMES,
  type JobName,
  sumJobId,
  depthJobId,
  unitJobId,
  unitKey,
  UNIT_KEY,
  parseUnitKey,
  checkJobId,
  checkUnitJobId,
} from './queues.js';
export {
  type UnitJobData,
  type DepthJobData,
  type SumJobData,
  SWEEP_ID,
  parseUnitJobData,
  parseDepthJobData,
  parseSumJobData,
} from './job-payloads.js';
export {
  type UnitResult,
  type DepthResult,
  type VerifiedResult,
  type Mismatch,
  type DepthMismatch,
  type SumResult,
  type CompletionRecord,
  isDecimal,
  parseUnitResult,
  parseDepthResult,
  parseChildResult,
  wholeDepth,
  parseSumChild,
} from './job-results.js';
export { type StoreKeys, storeKeys } from './store-keys.js';
export { ResultStore, type Role, type PutUnitOutcome, type Disagreement } from './result-store.js';
export {
  type PlannedUnitRecord,
  type PlanHeader,
  BOUND_FACTOR,
  MIN_BOUND_SECONDS,
  boundSeconds,
  PLAN_ID,
  planIdOf,
} from './plan-record.js';
export {
  SweepRegistry,
  type SweepRecord,
  type WorkerInfo,
  WORKER_TTL_MS,
} from './sweep-registry.js';
export {
  LOG_LEVELS,
  type LogLevel,
  CONFIG_ENV,
  type RedisSettings,
  type WqConfig,
  type ConfigOverrides,
  DEFAULT_REDIS_URL,
  compileConfig,
  parseJobIdList,
  parseByteSize,
  parseRedisUrl,
  redactUrl,
  parsePrefix,
  parseLogLevel,
  positiveInteger,
  parseTargetSeconds,
  DEFAULT_LOCK_MS,
  MAX_TARGET_SECONDS,
} from './config.js';
export {
  type AlgorithmCalibration,
  type Calibration,
  CALIBRATION_MIN_MODEL_SECONDS,
  CALIBRATION_MIN_ACTUAL_SECONDS,
  CALIBRATION_RATIO_BOUNDS,
  calibrationFromFields,
  calibrationRatio,
} from './calibration.js';
export { CLASSIC_QUEENS, type KnownValue, knownValue } from './references.js';
export {
  redisOptions,
  createRedis,
  type ConnectionRole,
  isConnectionError,
  workerRetryDelay,
} from './connection.js';
export {
  probeRedis,
  waitForRedis,
  RedisUnavailableError,
  type RedisProblem,
  type WaitForRedisOptions,
} from './redis-probe.js';
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { MACHINE_MEMORY_SHARE, defaultSlotMemory, defaultWorkerMemory } from './worker-memory.js';
