// @weak-queens/bench: benchmarks against the seed-style C++ baseline.
export {};
