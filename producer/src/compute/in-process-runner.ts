import { countUnit, type WorkUnit } from '@weak-queens/shared/kernel';
import type { UnitEvents, UnitRunner } from './unit-runner.js';

/**
 * Counts units one after another in the calling thread: one process, one thread, which is what
 * `wq compute --threads 1` (and the benchmark) measures.
 */
export class InProcessRunner implements UnitRunner {
  run(units: readonly WorkUnit[], events: UnitEvents): Promise<void> {
    // The executor runs synchronously; a throw inside it becomes the rejection.
    return new Promise((resolve) => {
      units.forEach((unit, index) => {
        const onProgress = events.onProgress && ((f: number) => events.onProgress?.(index, f));
        events.onDone(index, countUnit(unit, onProgress));
      });
      resolve();
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
