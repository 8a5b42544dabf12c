// The window transfer on a team of threads against the single-threaded reference. The team's
// threads load built files, so the parallel kernel comes from the build (the test task builds
// first); the reference from the sources, like every other kernel test.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countByWindowTransferParallel } from '../dist/kernel/index.js';
import { countByWindowTransfer } from '../src/kernel/index.js';

const TEAMS = [1, 2, 3, 4];
const everyD = (n: number): number[] => Array.from({ length: n }, (_, d) => d);

/** The OS threads of this process (Linux). */
const threads = (): number =>
  Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

// /proc may count a joined thread a moment longer (why: worker/test/whole-machine.test.ts).
const THREADS_GONE = { timeout: 2000, interval: 20 };

describe('when a team of threads counts a whole (n, D)', () => {
  for (let n = 9; n <= 13; n++) {
    it(`gives the single-threaded count for every D at n = ${n} with 1 to 4 threads`, async () => {
      for (const depth of everyD(n)) {
        const reference = countByWindowTransfer(n, depth, []);
        // The team sizes at once: starting threads, not counting, is most of the time here.
        const values = await Promise.all(
          TEAMS.map((team) => countByWindowTransferParallel(n, depth, [], { threads: team })),
        );
        expect(values).toEqual(TEAMS.map(() => reference));
      }
    }, 300_000);
  }

  it('stays exact where the halves meet in residues and a window is its own mirror image', async () => {
    // N(n, 1) meets in residues from n = 24; an odd n has the self-mirrored middle window.
    for (const n of [24, 25]) {
      const reference = countByWindowTransfer(n, 1, []);
      for (const team of TEAMS) {
        expect(await countByWindowTransferParallel(n, 1, [], { threads: team })).toBe(reference);
      }
    }
  });
});

describe('when a team of threads counts from fixed first rows', () => {
  it('gives the single-threaded count in 16-bit cells, doubles and residues', async () => {
    const cases: Array<[number, number, number[]]> = [
      [12, 4, [5]],
      [12, 4, [0, 2, 4, 6, 8, 10]], // longer than a window
      [13, 7, [1, 3]],
      [14, 1, [0]], // doubles
      [16, 1, [3]], // residues
      [16, 2, [3, 0]],
    ];
    for (const [n, depth, prefix] of cases) {
      const reference = countByWindowTransfer(n, depth, prefix);
      for (const team of TEAMS) {
        const value = await countByWindowTransferParallel(n, depth, prefix, { threads: team });
        expect({ n, depth, prefix, team, value }).toEqual({
          n,
          depth,
          prefix,
          team,
          value: reference,
        });
      }
    }
  });
});

describe('when a team is stopped or misused', () => {
  it('rejects with the abort reason and leaves no thread running', async () => {
    const before = threads();
    const controller = new AbortController();
    let started!: () => void;
    const working = new Promise<void>((resolve) => (started = resolve));
    const run = countByWindowTransferParallel(15, 8, [], {
      threads: 3,
      signal: controller.signal,
      onProgress: (f) => f > 0 && started(),
    }).catch((err: unknown) => err);
    await working;
    expect(threads()).toBeGreaterThanOrEqual(before + 3);
    const reason = new Error('handed back');
    controller.abort(reason);
    expect(await run).toBe(reason);
    await expect.poll(threads, THREADS_GONE).toBe(before);
  });

  it('reports progress that rises to 1', async () => {
    const fractions: number[] = [];
    await countByWindowTransferParallel(12, 6, [], {
      threads: 2,
      onProgress: (f) => fractions.push(f),
    });
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('refuses a team size that is not an integer from 1 to 256', async () => {
    for (const team of [0, 1.5, 257]) {
      await expect(countByWindowTransferParallel(8, 3, [], { threads: team })).rejects.toThrow(
        `threads: ${team} is not allowed; expected an integer from 1 to 256`,
      );
    }
  });
});
