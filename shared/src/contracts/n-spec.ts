// The board sizes a command or a sweep asks for: "14", "4-12" or "4,6,10-12".
import { InvalidInputError } from '../kernel/errors.js';
import { MAX_N } from '../kernel/board.js';

const ALLOWED = `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`;

/** Parses an n-spec into sorted, distinct sizes; throws InvalidInputError naming what is allowed. */
export function parseNSpec(spec: string, field = 'n'): number[] {
  const sizes = new Set<number>();
  const parts = spec.trim().split(',');
  for (const part of parts) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!match) throw new InvalidInputError(field, spec, ALLOWED);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > MAX_N || from > to) throw new InvalidInputError(field, spec, ALLOWED);
    for (let n = from; n <= to; n++) sizes.add(n);
  }
  return [...sizes].sort((a, b) => a - b);
}
