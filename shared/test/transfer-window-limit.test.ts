// The window transfer refuses tables past MAX_TRANSFER_WINDOWS (a run of N(18, 11), 2.9e9
// windows, gave a wrong count): the chooser never plans one, whatever the memory, and the build
// refuses one it is asked for by name.
import { describe, expect, it } from 'vitest';
import { chooseAlgorithm, InvalidInputError } from '../src/kernel/index.js';
import { assertTransferWindows, MAX_TRANSFER_WINDOWS } from '../src/kernel/window-transfer.js';

const HUGE = 1024 ** 4; // 1 TiB: memory never decides below

describe('the window-transfer size limit', () => {
  it('plans N(18, 10) (1.1e9 windows, verified) as a transfer and N(18, 11) (2.9e9) by the DFS', () => {
    // The transfer the only candidate, so that only the size limit can send it to the fallback.
    const roomy = {
      slotMemoryBytes: HUGE,
      workerMemoryBytes: HUGE,
      candidates: ['window-transfer'] as const,
      fallback: 'dfs' as const,
    };
    expect(chooseAlgorithm(18, 10, roomy).algorithm).toBe('window-transfer');
    expect(chooseAlgorithm(18, 11, roomy).algorithm).toBe('dfs');
    expect(chooseAlgorithm(19, 10, roomy).algorithm).toBe('dfs');
  });

  it('refuses a table of more windows, with a line that names the way out', () => {
    expect(() => assertTransferWindows(18, 11, MAX_TRANSFER_WINDOWS)).not.toThrow();
    expect(() => assertTransferWindows(18, 11, 2923000000)).toThrow(InvalidInputError);
    expect(() => assertTransferWindows(18, 11, 2 ** 32 + 5)).toThrow(
      'D: 11 is not allowed; expected a window transfer of at most 2147483647 windows (N(18, 11) has 4294967301): count it by the DFS',
    );
  });
});
