// What a sweep will cost before it is planned: per (n, D) the kernel's estimate of the cheapest
// algorithm that fits a slot, calibrated, without splitting into units (a second for n = 32,
// where planning the units takes minutes and queues 10^5 jobs).
import { chooseAlgorithm } from '../kernel/index.js';
import { type Calibration, calibrationRatio } from '../contracts/index.js';

export interface SweepEstimateOptions {
  /** Slot memory: algorithms whose tables do not fit are not chosen. */
  readonly slotMemoryBytes: number;
  readonly calibration?: Calibration;
  /** Every (n, D) counted twice (`--verify`): the second count is taken as costing as much. */
  readonly verify?: boolean;
}

/** Expected single-core seconds of every (n, D) of `ns`. */
export function estimateSweepSeconds(ns: readonly number[], options: SweepEstimateOptions): number {
  const calibration = options.calibration ?? {};
  const choice = {
    slotMemoryBytes: options.slotMemoryBytes,
    secondsScale: (algorithm: Parameters<typeof calibrationRatio>[1]) =>
      calibrationRatio(calibration, algorithm),
  };
  let seconds = 0;
  for (const n of ns) {
    for (let depth = 0; depth < n; depth++) {
      const { algorithm, estimate } = chooseAlgorithm(n, depth, choice);
      seconds += estimate.seconds * calibrationRatio(calibration, algorithm);
    }
  }
  return options.verify ? 2 * seconds : seconds;
}
