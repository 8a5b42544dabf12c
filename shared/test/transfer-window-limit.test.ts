// The window transfer refuses tables past MAX_TRANSFER_WINDOWS (2^32 − 2: window indices are
// Uint32Array cells): the chooser never plans one, whatever the memory, and the build refuses
// one it is asked for by name.
import { describe, expect, it } from 'vitest';
import { chooseAlgorithm, InvalidInputError } from '../src/kernel/index.js';
import {
  assertLevelIndices,
  assertTransferWindows,
  MAX_TRANSFER_WINDOWS,
} from '../src/kernel/window-transfer.js';

const HUGE = 1024 ** 4; // 1 TiB: memory never decides below

describe('the window-transfer size limit', () => {
  it('plans N(18, 11) (2.9e9 windows) and N(19, 10) (3.0e9) as transfers, N(18, 12) (5.9e9) by the DFS', () => {
    // The transfer the only candidate, so that only the size limit can send it to the fallback.
    const roomy = {
      slotMemoryBytes: HUGE,
      workerMemoryBytes: HUGE,
      candidates: ['window-transfer'] as const,
      fallback: 'dfs' as const,
    };
    expect(chooseAlgorithm(18, 10, roomy).algorithm).toBe('window-transfer');
    expect(chooseAlgorithm(18, 11, roomy).algorithm).toBe('window-transfer');
    expect(chooseAlgorithm(19, 10, roomy).algorithm).toBe('window-transfer');
    expect(chooseAlgorithm(18, 12, roomy).algorithm).toBe('dfs');
    expect(chooseAlgorithm(20, 10, roomy).algorithm).toBe('dfs');
  });

  it('refuses a table of more windows, with a line that names the way out', () => {
    expect(MAX_TRANSFER_WINDOWS).toBe(4294967294);
    expect(() => assertTransferWindows(18, 11, 2937029436)).not.toThrow();
    expect(() => assertTransferWindows(18, 12, MAX_TRANSFER_WINDOWS)).not.toThrow();
    expect(() => assertTransferWindows(18, 12, 5921000000)).toThrow(InvalidInputError);
    expect(() => assertTransferWindows(18, 12, 2 ** 32 - 1)).toThrow(
      'D: 12 is not allowed; expected a window transfer of at most 4294967294 windows (N(18, 12) has 4294967295): count it by the DFS',
    );
  });

  it('refuses a trie level whose first-child indices would pass the Int32 range', () => {
    expect(() => assertLevelIndices(2 ** 31 - 1)).not.toThrow();
    expect(() => assertLevelIndices(2 ** 31)).toThrow(
      'a trie level of 2147483648 nodes: past 2^31 − 1',
    );
  });
});
