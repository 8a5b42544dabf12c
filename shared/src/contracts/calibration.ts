// The cost model's calibration: per algorithm, the measured seconds of finished units against
// the kernel's estimates for them. The planner multiplies estimates by the ratio, so splitting,
// the algorithm choice and the queue priorities follow what units really cost on these workers.
import * as v from 'valibot';
import { type Algorithm, ALGORITHMS } from '../kernel/algorithms.js';

export interface AlgorithmCalibration {
  /** Units that calibrate (estimated at least CALIBRATION_MIN_MODEL_SECONDS). */
  readonly units: number;
  /** Their summed kernel estimates (single-core seconds, before calibration). */
  readonly modelSeconds: number;
  /** Their summed measured seconds. */
  readonly actualSeconds: number;
  /** actual / model once enough time backs it (CALIBRATION_MIN_ACTUAL_SECONDS), else 1. */
  readonly ratio: number;
}

export type Calibration = Readonly<Partial<Record<Algorithm, AlgorithmCalibration>>>;

/** Units estimated below this are dominated by per-unit overhead: they do not calibrate. */
export const CALIBRATION_MIN_MODEL_SECONDS = 0.05;
/** A ratio is applied once this many measured seconds back it. */
export const CALIBRATION_MIN_ACTUAL_SECONDS = 1;
/** A ratio outside these bounds says more about a noisy machine than about the model. */
export const CALIBRATION_RATIO_BOUNDS = [0.1, 10] as const;

/** No real unit averages more than a day on one core: sums beyond that were written by hand. */
const MAX_SECONDS_PER_UNIT = 86_400;

/**
 * One algorithm's stored sums (`<algorithm>:units|model|actual`, absent fields 0) as real units
 * can write them: finite, not negative, averaging at most a day per unit.
 */
export const CalibrationSumsSchema = v.pipe(
  v.object({
    units: v.pipe(v.number(), v.integer(), v.minValue(0)),
    model: v.pipe(v.number(), v.finite(), v.minValue(0)),
    actual: v.pipe(v.number(), v.finite(), v.minValue(0)),
  }),
  v.check(
    ({ units, model, actual }) =>
      model <= units * MAX_SECONDS_PER_UNIT && actual <= units * MAX_SECONDS_PER_UNIT,
  ),
);

function storedSums(fields: Readonly<Record<string, string>>, algorithm: Algorithm) {
  const sum = (k: string) => Number(fields[`${algorithm}:${k}`] ?? 0);
  return { units: sum('units'), model: sum('model'), actual: sum('actual') };
}

/**
 * The algorithms whose stored sums cannot come from real units. The store deletes them instead
 * of planning with them.
 */
export function corruptCalibration(fields: Readonly<Record<string, string>>): Algorithm[] {
  return ALGORITHMS.filter(
    (algorithm) =>
      ['units', 'model', 'actual'].some((k) => fields[`${algorithm}:${k}`] !== undefined) &&
      !v.is(CalibrationSumsSchema, storedSums(fields, algorithm)),
  );
}

/** Builds the calibration from the stored sums (hash fields `<algorithm>:units|model|actual`). */
export function calibrationFromFields(fields: Readonly<Record<string, string>>): Calibration {
  const calibration: Partial<Record<Algorithm, AlgorithmCalibration>> = {};
  const corrupt = corruptCalibration(fields);
  for (const algorithm of ALGORITHMS) {
    if (corrupt.includes(algorithm)) continue;
    const { units, model: modelSeconds, actual: actualSeconds } = storedSums(fields, algorithm);
    if (!(units > 0 && modelSeconds > 0 && actualSeconds >= 0)) continue;
    const [low, high] = CALIBRATION_RATIO_BOUNDS;
    const ratio =
      actualSeconds >= CALIBRATION_MIN_ACTUAL_SECONDS
        ? Math.min(high, Math.max(low, actualSeconds / modelSeconds))
        : 1;
    calibration[algorithm] = { units, modelSeconds, actualSeconds, ratio };
  }
  return calibration;
}

/** The factor that turns a kernel estimate of `algorithm` into expected seconds here. */
export function calibrationRatio(calibration: Calibration, algorithm: Algorithm): number {
  return calibration[algorithm]?.ratio ?? 1;
}
