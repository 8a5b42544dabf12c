// The <ns> of the pipeline commands: one n spec.
import { InvalidInputError, type PositionalDefinition } from '@weak-queens/shared/process';
import { MAX_N } from '@weak-queens/shared/kernel';

export const N_SPEC: PositionalDefinition = {
  name: 'ns',
  allowed: `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`,
  description: '"14", "4-12" or "4,6,10-12"',
};

export const SWEEP_ID: PositionalDefinition = {
  name: 'sweep',
  allowed: 'one sweep id (see wq status)',
};

/** The sweep id a command names (its first positional), or a clear error. */
export function sweepIdOf(positionals: readonly string[]): string {
  const id = positionals[0] ?? '';
  if (!id) throw new InvalidInputError('sweep', id, SWEEP_ID.allowed);
  return id;
}
