// @weak-queens/producer: plans and enqueues sweeps; home of the wq command line.
export {};
export * from './pipeline/index.js';
export { RedisServer, RedisServerError, type RedisServerOptions } from './embedded/redis-server.js';
export { spawnWorkerProcess, workerEntry, exitOf } from './embedded/worker-process.js';
export {
  spawnDashboardProcess,
  dashboardEntry,
  dashboardUrl,
  DashboardMissingError,
} from './embedded/dashboard-process.js';
