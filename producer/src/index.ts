// @weak-queens/producer: the wq command line and `npm start`, and the local processes they
// start (a private redis-server, workers, the dashboard). Sweeps themselves are planned and
// followed by the client in @weak-queens/shared/client.
export { RedisServer, RedisServerError, type RedisServerOptions } from './embedded/redis-server.js';
export { spawnWorkerProcess, workerEntry, exitOf } from './embedded/worker-process.js';
export {
  spawnDashboardProcess,
  dashboardEntry,
  dashboardUrl,
  DashboardMissingError,
} from './embedded/dashboard-process.js';
