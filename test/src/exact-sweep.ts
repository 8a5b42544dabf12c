// The check most end-to-end tests end with: the sweep finished and every S(n) is exact.
import type { PipelineClient } from '@weak-queens/shared/client';
import { knownSums } from '@weak-queens/shared/contracts';
import { expect } from 'vitest';
import { unitRecords } from './unit-records.js';

/** Waits for sweep `sweepId` to finish, then expects the known S(n) for every n of `ns`. */
export async function expectExactSweep(
  client: PipelineClient,
  sweepId: string,
  ns: readonly number[],
): Promise<void> {
  await client.waitFor(sweepId);
  const results = await client.results(ns);
  expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(ns));
}

/**
 * Sweeps n = 1 … 12 on several hosts and expects it exact; resolves to the hosts whose workers
 * counted its units (`hostOf` names a worker's), sorted.
 */
export async function exactSweepHosts<T>(
  client: PipelineClient,
  hostOf: (worker: string) => T,
): Promise<T[]> {
  const ns = Array.from({ length: 12 }, (_, i) => i + 1);
  const { sweep } = await client.submit(ns);
  await expectExactSweep(client, sweep.id, ns);
  const records = (await unitRecords(client.store, ns)).values();
  return [...new Set([...records].map((u) => hostOf(u.worker)))].sort();
}
