// The classic problem as the client sees it: Q(n) (OEIS A000170) and the boards distinct under
// the 8 symmetries (A002562), one flow per n over symmetry classes of the outer rows, on the
// same queues as the weak sweeps (classic-jobs.ts).
import { randomBytes } from 'node:crypto';
import { type ClassicResult, classicSumJobId } from '../../contracts/classic-jobs.js';
import { PROBLEM_REGISTRY } from '../../contracts/problems.js';
import { classicSweepProgress } from '../classic-progress.js';
import { planClassic, type PlannedClassic } from '../classic-planner.js';
import type { Problem } from './problem.js';

export const classic: Problem<ClassicResult> = {
  id: 'classic',
  registration: PROBLEM_REGISTRY.classic,
  listsUnits: true,
  samples: true,
  newSweepId: () => `c-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`,
  sumJobId: classicSumJobId,
  /** Q(n) and its classes for every n not stored (or, with `verify`, not yet checked). */
  async plan(parts, ns, options) {
    const flows: PlannedClassic[] = [];
    // Units are batched into jobs for the slots there are (one worker like this one when none
    // is live), so small n do not pay a job's round trips per unit of milliseconds.
    const slots = options.cluster.workers * options.cluster.slots;
    for (const n of ns) {
      flows.push(
        await planClassic(n, parts.classic, {
          sweepId: options.sweepId,
          attempts: parts.config.attempts,
          slots,
          ...(options.verify ? { verify: true } : {}),
          ...(options.sample !== undefined ? { sample: options.sample } : {}),
        }),
      );
    }
    return {
      flows,
      record: {
        targetSeconds: parts.config.targetSeconds,
        problem: 'classic',
        ...(options.verify ? { verify: true } : {}),
        ...(options.sample !== undefined ? { sample: options.sample } : {}),
      },
      // A verified sweep plans a stored but unchecked Q(n) on purpose.
      recount: options.verify ?? false,
    };
  },
  results: (parts, ns) => parts.classic.results(ns),
  resultsStored: (parts, ns) => parts.classic.resultsStored(ns),
  countedUnits: async (parts, n) => (await parts.classic.units(n)).size,
  resubmitOptions: (sweep) => ({
    sweepId: sweep.id,
    ...(sweep.verify ? { verify: true } : {}),
    ...(sweep.sample === undefined ? {} : { sample: sweep.sample }),
  }),
  progress(deps) {
    return async (sweeps) => {
      const stored = await deps.classic.progress([...new Set(sweeps.flatMap((s) => s.ns))]);
      return (sweep, queues, now) => classicSweepProgress(sweep, stored, queues, deps.queues, now);
    };
  },
};
