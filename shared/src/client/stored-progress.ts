// The stored part of a sweep's progress in one read: what the result store holds of each n
// (S(n), its mismatch, N(n, D), unit counts and, for the dashboard, unit seconds).
import {
  type DepthResult,
  isDecimal,
  type Mismatch,
  parseDepthResult,
  parseMismatch,
  parseUnitResult,
} from '../contracts/job-results.js';
import type { StoreKeys } from '../contracts/store-keys.js';
import { stringList } from './store-records.js';

/** What the result store holds of one n, as a progress read needs it. */
export interface StoredSize {
  readonly n: number;
  readonly S?: string;
  /** Why S(n) was withdrawn (or not published), when a recount disagreed. */
  readonly mismatch?: Mismatch;
  /** N(n, D) stored so far, by D. */
  readonly depths: ReadonlyMap<number, DepthResult>;
  /** Stored unit results of each D: the first count, and the second of a verified sweep. */
  readonly unitCounts: readonly number[];
  readonly checkCounts: readonly number[];
  /** Single-core seconds of the stored units of each unfinished D (with `unitSeconds` only). */
  readonly unitSeconds?: readonly number[];
}

/** The keys STORED_PROGRESS reads for these n after its named ones, in its order. */
export function storedProgressKeys(keys: StoreKeys, ns: readonly number[]): string[] {
  const read: string[] = [];
  for (const n of ns) {
    read.push(keys.depths(n));
    for (let d = 0; d < n; d++) read.push(keys.units(n, d), keys.checkUnits(n, d));
  }
  return read;
}

/**
 * STORED_PROGRESS's reply as StoredSize per n; an S(n) only where `holding` says its record
 * holds, an N(n, D) only where `trustsDepth` says it is a result.
 */
export function parseStoredProgress(
  reply: unknown,
  ns: readonly number[],
  check: {
    readonly holding: ReadonlySet<number>;
    readonly trustsDepth: (depth: DepthResult) => boolean;
    readonly unitSeconds: boolean;
  },
): Map<number, StoredSize> {
  const found = new Map<number, StoredSize>();
  const sizes = storedProgressSizes(reply);
  ns.forEach((n, i) => {
    const [S, mismatch, depthFields, counts, units] = (sizes[i] ?? []) as [
      unknown,
      unknown,
      unknown,
      unknown,
      unknown,
    ];
    const depths = new Map<number, DepthResult>();
    const fields = stringList(depthFields);
    for (let j = 0; j + 1 < fields.length; j += 2) {
      const result = parseDepthResult(JSON.parse(fields[j + 1] ?? ''));
      if (result.n === n && String(result.depth) === fields[j] && check.trustsDepth(result)) {
        depths.set(result.depth, result);
      }
    }
    const numbers = Array.isArray(counts) ? counts.map(Number) : [];
    const unitLists = Array.isArray(units) ? units : [];
    found.set(n, {
      n,
      ...(isDecimal(S) && check.holding.has(n) ? { S } : {}),
      ...(typeof mismatch === 'string' && mismatch !== ''
        ? { mismatch: parseMismatch(JSON.parse(mismatch)) }
        : {}),
      depths,
      unitCounts: Array.from({ length: n }, (_, d) => numbers[2 * d] ?? 0),
      checkCounts: Array.from({ length: n }, (_, d) => numbers[2 * d + 1] ?? 0),
      ...(check.unitSeconds
        ? {
            unitSeconds: Array.from({ length: n }, (_, d) =>
              stringList(unitLists[d]).reduce(
                (t, json) => t + parseUnitResult(JSON.parse(json)).seconds,
                0,
              ),
            ),
          }
        : {}),
    });
  });
  return found;
}

/** The per-n entries of a STORED_PROGRESS reply. */
export function storedProgressSizes(reply: unknown): unknown[] {
  return Array.isArray(reply) ? (reply as unknown[]) : [];
}
