// The <ns> of the pipeline commands: one n spec, and why the largest n is the largest.
import { parseNSpec } from '@weak-queens/shared/contracts';
import { MAX_N } from '@weak-queens/shared/kernel';
import { InvalidInputError, type PositionalDefinition } from '@weak-queens/shared/process';

export const N_SPEC: PositionalDefinition = {
  name: 'ns',
  allowed: `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`,
  description: '"14", "4-12" or "4,6,10-12"',
};

/** Said beside the range when an n beyond it was asked for: the limit is the board's encoding. */
const LARGEST = `${MAX_N} is the largest: a board's columns are the bits of a 32-bit integer`;

/** The sizes of a command line's n spec; a refusal of a too large n says why it is too large. */
export function parseSizes(spec: string, field = 'n'): number[] {
  try {
    return parseNSpec(spec, field);
  } catch (error) {
    throw withLargestReason(error, spec);
  }
}

/** `error` with the reason for the largest n added when `text` asks for a larger one. */
export function withLargestReason(error: unknown, text: string): unknown {
  const asked = (text.match(/\d+/g) ?? []).map(Number);
  if (!(error instanceof InvalidInputError) || !asked.some((n) => n > MAX_N)) return error;
  return new InvalidInputError(error.field, error.value, `${error.allowed} (${LARGEST})`);
}
