// A unit counted twice with two different values: both kept, neither trusted. The result store
// keeps it aside and reads it back through this schema.
import * as v from 'valibot';
import { record } from './schema.js';

export const DisagreementSchema = record({
  n: v.message(v.pipe(v.number(), v.integer(), v.minValue(1)), 'n ≥ 1'),
  depth: v.message(v.pipe(v.number(), v.integer(), v.minValue(0)), 'D ≥ 0'),
  role: v.picklist(['primary', 'check'], '"primary" or "check"'),
  unit: v.string('a unit key'),
  /** The value the store held (still there); '' when it was unreadable (it disagrees with any). */
  stored: v.message(v.pipe(v.string(), v.regex(/^(|0|[1-9][0-9]*)$/)), 'a decimal string or ""'),
  storedWorker: v.string('a worker id or ""'),
  /** The new count, kept aside. */
  counted: v.message(v.pipe(v.string(), v.regex(/^(0|[1-9][0-9]*)$/)), 'a decimal string'),
  countedWorker: v.string('a worker id'),
  at: v.string('an ISO time'),
  /** Why the stored record is not trusted, when it was not a second count (a MAC that fails). */
  reason: v.optional(v.string('a reason or absent')),
});
export type Disagreement = v.InferOutput<typeof DisagreementSchema>;
