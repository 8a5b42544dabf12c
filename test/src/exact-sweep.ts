// The check most end-to-end tests end with: the sweep finished and every S(n) is exact.
import type { PipelineClient } from '@weak-queens/shared/client';
import { knownSums } from '@weak-queens/shared/contracts';
import { expect } from 'vitest';

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
