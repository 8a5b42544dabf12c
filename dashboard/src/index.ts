// @weak-queens/dashboard: the web dashboard, JSON API and metrics (issue 5).
export {};
