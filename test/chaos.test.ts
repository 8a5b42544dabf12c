// A minute of chaos (test/src/chaos-soak.ts): workers killed and replaced, frozen past their
// lock, Redis killed and restarted from its AOF, a worker's network cut and restored, all at
// random while sweeps of thousands of units run on 4 worker processes. Every S(n) stays exact.
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, runChaosSoak } from './src/index.js';
import { netnsUnavailable } from './src/netns-hosts.js';

const unavailable = netnsUnavailable();
if (unavailable && process.env.CI) {
  throw new Error(`the chaos test needs network namespaces on CI: ${unavailable}`);
}

describe('when chaos strikes for a minute', () => {
  it('every round of the sweep ends exact, and each kind of fault happened', async () => {
    const report = await runChaosSoak({
      minutes: 1,
      // n = 1..12 in units of 30 µs: about 2,500 units a round.
      ns: Array.from({ length: 12 }, (_, i) => i + 1),
      targetSeconds: 3e-5,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const round of [report.baseline, ...report.rounds]) {
      expect(round.wrong).toEqual([]);
      expect(round.disagreements).toBe(0);
      // Every planned unit was begun at least once; a unit begun twice was re-run.
      expect(round.starts).toBeGreaterThanOrEqual(round.units);
    }
    expect(report.exact).toBe(true);
    // The baseline has no faults: no unit ran twice there.
    expect(report.baseline.starts).toBe(report.baseline.units);
    const expected = FAULT_KINDS.filter((k) => !unavailable || k !== 'network-cut');
    for (const kind of expected) expect(report.faults[kind]).toBeGreaterThan(0);
    if (unavailable) process.stderr.write(`chaos test ran without network cuts: ${unavailable}\n`);
  }, 600_000);
});
