// @weak-queens/producer: plans and enqueues sweeps; home of the wq command line.
export {};
