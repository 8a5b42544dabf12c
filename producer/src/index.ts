// @weak-queens/producer: the wq command line and `npm start`, and the local processes they
// start (a private redis-server, workers, the dashboard). Sweeps themselves are planned and
// followed by the client in @weak-queens/shared/client.
export { DashboardMissingError } from './errors.js';
export { spawnWorkerProcess, workerEntry, exitOf } from './embedded/worker-process.js';
export {
  spawnDashboardProcess,
  dashboardEntry,
  dashboardUrl,
} from './embedded/dashboard-process.js';
