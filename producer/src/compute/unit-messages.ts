// Messages between the unit pool and its threads. Counts travel as decimal strings: BigInt
// survives structured clone, but strings are what every other boundary of the project uses.
import type { WorkUnit } from '@weak-queens/shared/kernel';

export interface UnitThreadData {
  /** Post progress messages (only worth it when someone draws them). */
  readonly progress: boolean;
}

export interface CountRequest {
  readonly type: 'count';
  readonly id: number;
  readonly unit: WorkUnit;
}

export type UnitReply =
  | { readonly type: 'progress'; readonly id: number; readonly fraction: number }
  | { readonly type: 'done'; readonly id: number; readonly count: string }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
