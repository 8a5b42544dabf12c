// `wq compute` with several threads runs a big window-transfer unit on all of them at once.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planSizes } from '../src/compute/compute-sizes.js';
import { PoolRunner } from '../src/compute/pool-runner.js';

const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));

const compute = (...args: string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [WQ, 'compute', ...args], (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });

describe('when wq compute has several threads and a big transfer unit', () => {
  it('runs the transfer units of S(15) above the team threshold on the team', () => {
    // At n = 15 only N(15, 8) is a window-transfer unit above the team threshold (0.25 s).
    const GiB = 1024 ** 3;
    const team = new PoolRunner(2, GiB);
    const memory = { slotMemoryBytes: GiB, workerMemoryBytes: GiB };
    const units = planSizes([15], { algorithm: 'auto', threads: 2, memory });
    const depths = units.filter((unit) => team.takes(unit)).map((unit) => unit.depth);
    expect(depths).toEqual([8]);
    const big = units.find((unit) => unit.depth === 8)!;
    expect(new PoolRunner(1, GiB).takes(big)).toBe(false);
  });

  it('gives the published S(14) = 11726115562784664 with --threads 2', async () => {
    const line = JSON.parse(await compute('14', '--threads', '2', '--json')) as {
      S: string;
      N: string[];
    };
    expect(line.S).toBe('11726115562784664');
    expect(line.N[8]).toBe('137650392');
  });
});
