// @weak-queens/shared/contracts: what producer, worker and dashboard agree on: queue names, job
// payloads and results, the Redis key layout, plans, config, errors. Data and validation only:
// the Redis classes that read and write them are in ../client.
export {
  PROTOCOL_VERSION,
  FIRST_PROTOCOL,
  protocolOf,
  leftAloneReason,
  isLeftAlone,
} from './protocol.js';
export {
  QUEUE_NAMES,
  queueNamesOf,
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
  UnitJobSchema,
  DepthJobSchema,
  SumJobSchema,
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
  UnitResultSchema,
  DepthResultSchema,
  VerifiedResultSchema,
  MismatchSchema,
  DepthMismatchSchema,
  SumResultSchema,
  CompletionRecordSchema,
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
  PlannedUnitSchema,
  PlanHeaderSchema,
  BOUND_FACTOR,
  MIN_BOUND_SECONDS,
  boundSeconds,
  PLAN_ID,
  planIdOf,
  parsePlanHeader,
  parsePlannedUnit,
} from './plan-record.js';
export {
  LOG_LEVELS,
  type LogLevel,
  CONFIG_ENV,
  type RedisSettings,
  type WqConfig,
  type ConfigOverrides,
  type ConfigEnv,
  ConfigEnvSchema,
  DEFAULT_REDIS_URL,
  compileConfig,
  parseByteSize,
  parseRedisUrl,
  redactUrl,
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
  CalibrationSumsSchema,
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
export {
  MACHINE_MEMORY_SHARE,
  WORKER_MEMORY_SHARE,
  containerLimits,
  defaultSlotMemory,
  defaultSlots,
  defaultWorkerMemory,
  type MemoryBudget,
  type MemorySettings,
  memoryBudget,
  withSlots,
} from './worker-memory.js';
export { CGROUP_ROOT, type CgroupLimits, readCgroupLimits } from './cgroup-limits.js';
export { parseNSpec } from './n-spec.js';
export {
  CLOCK_SKEW_WARN_MS,
  type SweepRecord,
  SweepRecordSchema,
  type WorkerInfo,
  WorkerInfoSchema,
} from './sweep-record.js';
export { type Disagreement, DisagreementSchema } from './disagreement.js';
export {
  type InputName,
  type RecordOptions,
  parseInput,
  parseJson,
  record,
  refine,
} from './schema.js';
// The errors every package throws and catches, here as in the kernel entry, with Redis's: all of
// both files, so an error added there needs no second list.
export * from '../kernel/errors.js';
export * from './redis-errors.js';
export {
  PROBLEMS,
  type Problem,
  DEFAULT_PROBLEM,
  type ProblemRegistration,
  PROBLEM_REGISTRY,
  parseProblem,
} from './problems.js';
export {
  CLASSIC_JOB_NAMES,
  classicSumJobId,
  classicUnitJobId,
  type ClassicStoreKeys,
  classicStoreKeys,
  type ClassicUnitJobData,
  type ClassicSumJobData,
  type ClassicUnitResult,
  type ClassicResult,
  parseClassicUnitJobData,
  parseClassicSumJobData,
  parseClassicUnitResult,
  parseClassicResult,
} from './classic-jobs.js';
