// The soak bench's figures from samples recorded elsewhere (`--samples`): the goals a long run
// breaks first, read exactly from a small made-up run of three hours.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runSoakBench } from '../src/soak.js';

const dir = mkdtempSync(join(tmpdir(), 'wq-soak-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sample `minutes` into a 180-minute run of 1800 units, one worker (pid 7). */
function sample(minutes: number, rssMiB: number, extra: object = {}) {
  const at = 1_800_000_000 + minutes * 60;
  const left = (180 - minutes) * 60;
  return {
    at,
    rssKiB: { '7': rssMiB * 1024 },
    usedMemory: 20 * 2 ** 20,
    aofBytes: (10 + minutes) * 2 ** 20,
    aofRewrites: 0,
    rewriting: false,
    logLines: minutes * 10,
    unitsDone: minutes * 10,
    units: 1800,
    // wq status 10 % high throughout; the page 20 % low.
    etaSeconds: minutes === 180 ? null : 1.1 * left,
    pageEtaSeconds: minutes === 180 ? null : 0.8 * left,
    status: minutes === 180 ? 'done' : 'running',
    ...extra,
  };
}

async function report(samples: object[]): Promise<{ code: number; lines: string[] }> {
  const file = join(dir, `samples-${Math.random()}.jsonl`);
  writeFileSync(file, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...items: unknown[]) => {
    lines.push(...items.map(String).join(' ').split('\n'));
  });
  try {
    const code = await runSoakBench({ n: 19, everySeconds: 60, verify: false, samplesFile: file });
    return { code, lines };
  } finally {
    log.mockRestore();
  }
}

describe('the soak bench, from recorded samples', () => {
  it('reads memory growth after the first hour, the AOF, log lines an hour and both ETAs', async () => {
    // Memory 500 MiB until the hour, then up to 540 (8 %).
    const minutes = Array.from({ length: 19 }, (_, i) => i * 10);
    const { code, lines } = await report(
      minutes.map((m) => sample(m, m < 60 ? 500 : 500 + (m - 60) / 3)),
    );
    const row = (figure: string) => lines.find((l) => l.startsWith(`| ${figure}`));
    expect(row('worker RSS growth')).toBe(
      '| worker RSS growth after a warm-up of 60.0 min | +8.0 % (pid 7: 500.0 → 540.0 MiB) | ≤ 10 % | yes |',
    );
    expect(row('peak AOF size')).toBe(
      '| peak AOF size | 190.0 MiB; no rewrite ran | ≤ 1 GiB | yes |',
    );
    expect(row('worker log lines per hour')).toBe(
      '| worker log lines per hour | 600 (1,800 in 3.0 h) | ≤ 1,000 | yes |',
    );
    expect(row('ETA error at 50 % of the wall time (wq status)')).toBe(
      '| ETA error at 50 % of the wall time (wq status) | +10.0 % (at 90.0 min: ETA 5940 s, 5400 s remained) | within ±15 % | yes |',
    );
    expect(row('ETA error at 50 % of the wall time (the dashboard)')).toBe(
      '| ETA error at 50 % of the wall time (the dashboard) | -20.0 % (at 90.0 min: ETA 4320 s, 5400 s remained) | within ±15 % | no |',
    );
    // The page's ETA misses its goal: the run as a whole does.
    expect(code).toBe(1);
  });
});
