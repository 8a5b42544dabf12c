// The <n> of the classic commands (classic, unique, boards): one board size.
import { MAX_N } from '@weak-queens/shared/kernel';
import {
  integerRange,
  parseIntegerOption,
  type PositionalDefinition,
} from '@weak-queens/shared/process';
import { withLargestReason } from './n-spec.js';

export const BOARD_SIZE: PositionalDefinition = {
  name: 'n',
  allowed: integerRange(1, MAX_N),
  description: `board size, ${integerRange(1, MAX_N)}`,
};

export function parseBoardSize(text: string): number {
  try {
    return parseIntegerOption('n', text, 1, MAX_N);
  } catch (error) {
    throw withLargestReason(error, text);
  }
}
