// Integer option values ("--threads 4"): plain decimal digits only, so "1.5", "1e3" and "0x10"
// are refused with the range rather than read as something else.
import { InvalidInputError } from '../kernel/errors.js';

/** An integer in [min, max] written in plain decimal, or InvalidInputError naming the field. */
export function parseIntegerOption(field: string, text: string, min: number, max: number): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidInputError(field, text, integerRange(min, max));
  }
  return value;
}

export function integerRange(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER
    ? `an integer ≥ ${min}`
    : `an integer from ${min} to ${max}`;
}
