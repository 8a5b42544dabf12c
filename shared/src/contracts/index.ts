// @weak-queens/shared/contracts: what producer, worker and dashboard agree on: queue names, job
// payloads and results, the Redis key layout, plans, config, errors. Data and validation only:
// the Redis classes that read and write them are in ../client.
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
  memoryClassOf,
  largestClassWithin,
  formatClass,
  countQueueFor,
  countQueueClass,
  isCountQueue,
  countClassesKey,
  countQueueNames,
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
  parseMismatch,
  parseCompletionRecord,
} from './job-results.js';
export { type StoreKeys, storeKeys } from './store-keys.js';
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
export {
  CLASSIC_QUEENS,
  KNOWN_S,
  type KnownValue,
  knownSum,
  knownSums,
  knownValue,
  UNIQUE_QUEENS,
} from './references.js';
export { MACHINE_MEMORY_SHARE, defaultSlotMemory, defaultWorkerMemory } from './worker-memory.js';
export { parseNSpec } from './n-spec.js';
export {
  WeakQueensError,
  InvalidInputError,
  NotApplicableError,
  MAX_ECHO_CHARS,
  truncate,
} from '../kernel/errors.js';
