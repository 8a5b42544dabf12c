// The problem registry of the client: every problem the pipeline computes, by its id, and the
// one place that tells them apart. Submission, control, progress and waiting take a Problem
// from here; a new problem is one module beside these and one line below.
import { DEFAULT_PROBLEM, type Problem as ProblemId } from '../../contracts/problems.js';
import type { SweepRecord } from '../sweep-registry.js';
import { classic } from './classic.js';
import type { Problem } from './problem.js';
import { weakQueens } from './weak-queens.js';

const PROBLEMS: { readonly [id in ProblemId]: Problem<unknown> } = {
  weak: weakQueens,
  classic,
};

/** The problem of this id (see contracts/problems.ts for the ids). */
export function problemNamed(id: ProblemId): Problem<unknown> {
  return PROBLEMS[id];
}

/** The problem a sweep computes (absent on its record: weak, as before problems existed). */
export function problemOf(sweep: Pick<SweepRecord, 'problem'>): Problem<unknown> {
  return PROBLEMS[sweep.problem ?? DEFAULT_PROBLEM];
}

/** Every registered problem. */
export function allProblems(): readonly Problem<unknown>[] {
  return Object.values(PROBLEMS);
}

export { classic };
