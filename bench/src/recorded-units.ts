// What a finished run recorded about its units, for replaying it on other clusters.
import type { PipelineClient, RecordedUnit } from '@weak-queens/shared/client';

/** One counted piece of S(n) as the store recorded it. */
export interface RecordedPiece extends RecordedUnit {
  readonly depth: number;
  readonly algorithm: string;
}

/**
 * Every job that counted part of S(n): the single-core seconds it took and the seconds the
 * planner expected (its own seconds where no estimate was recorded).
 */
export async function recordedUnits(client: PipelineClient, n: number): Promise<RecordedPiece[]> {
  const pieces: RecordedPiece[] = [];
  for (const [depth, result] of await client.store.depths(n)) {
    const units = await client.store.units(n, depth);
    const counted = units.size > 0 ? [...units.values()] : [result];
    for (const unit of counted) {
      pieces.push({
        depth,
        algorithm: result.algorithm,
        seconds: unit.seconds,
        estimateSeconds: unit.estimateSeconds ?? unit.seconds,
      });
    }
  }
  return pieces;
}
