// The problems the pipeline computes. Each is a kind of work on the same queues (`count` for
// units, `aggregate` for sums), told apart by its job names, job ids and store keys, so a
// problem added later registers here (and in the worker's and client's problem tables) and
// leaves the queue machinery alone.
import { InvalidInputError } from '../kernel/errors.js';

export const PROBLEMS = ['weak', 'classic'] as const;
export type Problem = (typeof PROBLEMS)[number];

/** Today's N(n, D) and S(n): what a job, a sweep or a command without a problem means. */
export const DEFAULT_PROBLEM: Problem = 'weak';

/** How one problem's jobs and results are told apart from every other problem's. */
export interface ProblemRegistration {
  readonly problem: Problem;
  readonly summary: string;
  /** First letter(s) of its job ids: `n14-d9` (weak), `c16-3.7` (classic). */
  readonly idPrefix: string;
  /** Its job names in `count` and `aggregate`. */
  readonly jobNames: { readonly unit: string; readonly sum: string };
  /** Its part of the result store, after `<prefix>:results`: '' for weak, ':classic'. */
  readonly storeSpace: string;
  /** The published sequences its results are checked against (references.ts). */
  readonly references: readonly string[];
}

export const PROBLEM_REGISTRY: Readonly<Record<Problem, ProblemRegistration>> = {
  weak: {
    problem: 'weak',
    summary: 'N(n, D) for every attack depth D and S(n) = Σ_D N(n, D)',
    idPrefix: 'n',
    jobNames: { unit: 'unit', sum: 'sum' },
    storeSpace: '',
    references: ['KNOWN_S', 'OEIS A000170 (D = n − 1)'],
  },
  classic: {
    problem: 'classic',
    summary:
      'ordinary n-queens: Q(n) (OEIS A000170) and the classes under the 8 symmetries (A002562)',
    idPrefix: 'c',
    jobNames: { unit: 'classic-unit', sum: 'classic-sum' },
    storeSpace: ':classic',
    references: ['OEIS A000170', 'OEIS A002562'],
  },
};

/** The problem named by `value` (a CLI option, an HTTP query, job data); absent: weak. */
export function parseProblem(value: unknown, field = 'problem'): Problem {
  if (value === undefined) return DEFAULT_PROBLEM;
  if (typeof value !== 'string' || !(PROBLEMS as readonly string[]).includes(value)) {
    throw new InvalidInputError(field, value, `one of ${PROBLEMS.join(', ')}`);
  }
  return value as Problem;
}
