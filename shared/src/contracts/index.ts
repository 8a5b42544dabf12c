// The contracts producer and worker agree on: queues, payloads, results, keys, config, logs.
export * from './queues.js';
export * from './job-payloads.js';
export * from './job-results.js';
export * from './store-keys.js';
export { ResultStore, type Role } from './result-store.js';
export {
  SweepRegistry,
  type SweepRecord,
  type WorkerInfo,
  WORKER_TTL_MS,
} from './sweep-registry.js';
export * from './config.js';
export * from './calibration.js';
export * from './references.js';
export { redisOptions, createRedis, type ConnectionRole } from './connection.js';
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
