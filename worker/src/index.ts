// @weak-queens/worker: computes work units and aggregates results. Run it with `wq worker`
// (which spawns ./dist/main.js) or embed it with startWorkerService().
export { WorkerService, startWorkerService } from './worker-service.js';
export {
  type WorkerServiceOptions,
  compileWorkerServiceOptions,
} from './worker-service-options.js';
export { createCountProcessor } from './count-processor.js';
export { createAggregateProcessor } from './aggregate-processor.js';
