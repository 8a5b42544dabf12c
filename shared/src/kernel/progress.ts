// Progress is reported as the fraction (0..1) of a computation's estimated work that is done.
// Callers throttle; the kernel calls at natural boundaries (a branch, a row, a step).
export type ProgressCallback = (fraction: number) => void;
