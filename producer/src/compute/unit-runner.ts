// What runs a batch of work units: in this process (one thread) or on a pool of worker threads.
import type { WorkUnit } from '@weak-queens/shared/kernel';

export interface UnitEvents {
  /** Unit `index` of the batch has done `fraction` (0..1) of its estimated work. */
  onProgress?(index: number, fraction: number): void;
  /** Unit `index` finished with this share of N(n, D). */
  onDone(index: number, count: bigint): void;
}

export interface UnitRunner {
  /** Counts every unit once; rejects on the first failure. */
  run(units: readonly WorkUnit[], events: UnitEvents): Promise<void>;
  /** Frees threads; the runner cannot be used afterwards. */
  close(): Promise<void>;
}
