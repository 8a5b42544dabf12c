// The <ns> of the pipeline commands: one n spec.
import type { PositionalDefinition } from '@weak-queens/shared/process';
import { MAX_N } from '@weak-queens/shared/kernel';

export const N_SPEC: PositionalDefinition = {
  name: 'ns',
  allowed: `sizes from 1 to ${MAX_N} as "14", "4-12" or "4,6,10-12"`,
  description: '"14", "4-12" or "4,6,10-12"',
};
