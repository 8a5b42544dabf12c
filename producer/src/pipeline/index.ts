// The producer side of the pipeline: planning sweeps and following them in Redis.
export {
  PipelineClient,
  type SizeProgress,
  type SizeResults,
  type SizeState,
  type StatusReport,
  type SweepProgress,
  type SweepSubmission,
} from './pipeline-client.js';
export { SweepFailedError } from './sweep-failed-error.js';
export { resultsCsv, resultsJsonLine } from './format.js';
export { planSize, type PlannedSize, type SweepPlanOptions } from './sweep-planner.js';
