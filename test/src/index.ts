// @weak-queens/test: helpers for cross-process and end-to-end tests.
export {};
