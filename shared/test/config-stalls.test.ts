// The configuration schema: lock and stall detection (WQ_LOCK_MS, WQ_STALLED_INTERVAL_MS,
// WQ_MAX_STALLED) and the test-only switches WQ_TEST_FAIL_JOBS and WQ_TEST_PROTOCOL.
import { describe, expect, it } from 'vitest';
import { compileConfig } from '../src/contracts/index.js';

describe('when the lock and stall settings are read', () => {
  it('defaults to 24 s locks, a check every 6 s (30 s at most in all) and two stalls per job', () => {
    const config = compileConfig({});
    expect([config.lockMs, config.stalledIntervalMs, config.maxStalled]).toEqual([
      24_000, 6_000, 2,
    ]);
    expect(config.lockMs + config.stalledIntervalMs).toBe(30_000);
    expect(config.testFailJobs).toEqual([]);
  });

  it('checks for stalled jobs every quarter of a lock unless told otherwise', () => {
    expect(compileConfig({ WQ_LOCK_MS: '40000' }).stalledIntervalMs).toBe(10_000);
    expect(compileConfig({ WQ_LOCK_MS: '500' }).stalledIntervalMs).toBe(125);
    expect(
      compileConfig({ WQ_LOCK_MS: '40000', WQ_STALLED_INTERVAL_MS: '700' }).stalledIntervalMs,
    ).toBe(700);
  });

  it('takes short values for tests', () => {
    const config = compileConfig({
      WQ_LOCK_MS: '2000',
      WQ_STALLED_INTERVAL_MS: '500',
      WQ_MAX_STALLED: '5',
    });
    expect([config.lockMs, config.stalledIntervalMs, config.maxStalled]).toEqual([2000, 500, 5]);
  });

  it('refuses values too small to work, naming the variable', () => {
    expect(() => compileConfig({ WQ_LOCK_MS: '100' })).toThrow(
      'WQ_LOCK_MS: "100" is not allowed; expected an integer of milliseconds from 500 to 3600000',
    );
    expect(() => compileConfig({ WQ_STALLED_INTERVAL_MS: '1.5' })).toThrow(
      'WQ_STALLED_INTERVAL_MS: "1.5" is not allowed; expected an integer of milliseconds from 100 to 3600000',
    );
    expect(() => compileConfig({ WQ_MAX_STALLED: '0' })).toThrow(
      'WQ_MAX_STALLED: "0" is not allowed; expected an integer from 1 to 1000',
    );
  });
});

describe('when WQ_TEST_FAIL_JOBS is set (test only)', () => {
  it('lists count job ids as the planner names them', () => {
    expect(compileConfig({ WQ_TEST_FAIL_JOBS: 'n12-d9-u2, n6-d1' }).testFailJobs).toEqual([
      'n12-d9-u2',
      'n6-d1',
    ]);
  });

  it('refuses anything that is not a count job id', () => {
    expect(() => compileConfig({ WQ_TEST_FAIL_JOBS: 'n12-d9-u2,all' })).toThrow(
      'WQ_TEST_FAIL_JOBS: "all" is not allowed; expected count job ids such as "n12-d9" or "n12-d9-u2"',
    );
  });
});

describe('when WQ_TEST_PROTOCOL is set (test only)', () => {
  it('is the protocol a worker speaks, and unset without it', () => {
    expect(compileConfig({ WQ_TEST_PROTOCOL: '1' }).testProtocol).toBe(1);
    expect(compileConfig({}).testProtocol).toBeUndefined();
  });

  it('refuses anything that is not a protocol number', () => {
    expect(() => compileConfig({ WQ_TEST_PROTOCOL: 'v1' })).toThrow(
      'WQ_TEST_PROTOCOL: "v1" is not allowed; expected an integer from 1 to 1000',
    );
  });
});
