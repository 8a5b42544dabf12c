// The producer side of the pipeline: planning sweeps and following them in Redis.
export {
  PipelineClient,
  type SizeProgress,
  type SizeResults,
  type SizeState,
  type SizeTiming,
  type DepthTiming,
  type StatusReport,
  type SweepProgress,
  type SweepSubmission,
  type VerifyOutcome,
} from './pipeline-client.js';
export { SweepFailedError } from './sweep-failed-error.js';
export { resultsCsv, resultsJsonLine } from './format.js';
export {
  cheapestAlgorithm,
  planCheck,
  planDepth,
  planSize,
  type PlannedDepth,
  type PlannedSize,
  type PlannedUnit,
  type SweepPlanOptions,
} from './sweep-planner.js';
export { PRIORITY_LIMIT, unitPriority } from './priority.js';
