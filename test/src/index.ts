// @weak-queens/test: helpers for cross-process and end-to-end tests.
export { startTestRedis, uniquePrefix, deletePrefix, type TestRedis } from './test-redis.js';
export { startWorker, stopWorkers, type TestWorkerOptions } from './worker-processes.js';
