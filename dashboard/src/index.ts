// @weak-queens/dashboard: the web dashboard, JSON API and metrics. Run it with `wq dashboard`
// (which spawns ./dist/main.js) or build one with createDashboardServer().
export { createDashboardServer, DashboardServer } from './dashboard-server.js';
export {
  type DashboardOptions,
  type CompiledDashboardOptions,
  type DashboardFlags,
  type LiveFeedLimits,
  compileDashboardOptions,
  dashboardOptionsFromEnv,
  isLoopback,
  DASHBOARD_ENV,
  DEFAULT_HOST,
  DEFAULT_PORT,
  MIN_TOKEN_LENGTH,
} from './dashboard-options.js';
export type {
  Snapshot,
  SweepView,
  SizeView,
  DepthView,
  WorkerView,
  DepthStatus,
  SweepStatus,
} from './snapshot.js';
export type { TimelineView, TimelineUnit, TimelineLane, TimelineMakespan } from './timeline.js';
export {
  MAX_TIMELINE_UNITS,
  MAX_OVERRUNS,
  OVERRUN_MIN_SECONDS,
  OVERRUN_RATIO,
} from './timeline.js';
export { TimelineReader } from './timeline-reader.js';
export { mergeExpositions } from './exposition.js';
export { CSRF_COOKIE, CSRF_HEADER } from './csrf.js';
export { SESSION_COOKIE } from './auth.js';
