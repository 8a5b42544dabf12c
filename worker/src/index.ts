// @weak-queens/worker: computes work units and aggregates results (issue 3).
export {};
