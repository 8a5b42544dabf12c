// The configuration schema: every numeric variable has a sane range, and an error names the
// variable and the range; an echoed value is cut short so an error stays one readable line.
import { describe, expect, it } from 'vitest';
import { compileConfig, InvalidInputError, parseRedisUrl } from '../src/contracts/index.js';

const HUGE = '99999999999999999999';

describe('when a numeric variable is absurdly large', () => {
  it.each([
    ['WQ_SHUTDOWN_GRACE_MS', 'an integer of milliseconds from 0 to 600000'],
    ['WQ_LOCK_MS', 'an integer of milliseconds from 500 to 3600000'],
    ['WQ_STALLED_INTERVAL_MS', 'an integer of milliseconds from 100 to 3600000'],
    ['WQ_REDIS_WAIT_LOG_MS', 'an integer of milliseconds from 100 to 3600000'],
    ['WQ_CONCURRENCY', 'an integer from 1 to 1024'],
    ['WQ_ATTEMPTS', 'an integer from 1 to 100'],
    ['WQ_MAX_STALLED', 'an integer from 1 to 1000'],
    ['WQ_TARGET_SECONDS', 'a number of seconds > 0 and ≤ 86400 (a day)'],
    [
      'WQ_SLOT_MEMORY',
      'a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M',
    ],
  ])('refuses %s, naming it and its range', (name, range) => {
    expect(() => compileConfig({ [name]: HUGE })).toThrow(
      `${name}: "${HUGE}" is not allowed; expected ${range}`,
    );
  });

  it('refuses a target of 1e300 seconds and of zero, and takes a small one', () => {
    for (const bad of ['1e300', '0', '-1', 'Infinity', 'NaN', '86401']) {
      expect(() => compileConfig({ WQ_TARGET_SECONDS: bad })).toThrow(
        `WQ_TARGET_SECONDS: "${bad}" is not allowed; expected a number of seconds > 0 and ≤ 86400 (a day)`,
      );
    }
    expect(compileConfig({ WQ_TARGET_SECONDS: '0.0005' }).targetSeconds).toBe(0.0005);
    expect(compileConfig({ WQ_TARGET_SECONDS: '86400' }).targetSeconds).toBe(86_400);
  });

  it('takes the ends of each range', () => {
    const config = compileConfig({
      WQ_SHUTDOWN_GRACE_MS: '0',
      WQ_LOCK_MS: '3600000',
      WQ_STALLED_INTERVAL_MS: '100',
      WQ_REDIS_WAIT_LOG_MS: '100',
    });
    expect([
      config.shutdownGraceMs,
      config.lockMs,
      config.stalledIntervalMs,
      config.redisWaitLogMs,
    ]).toEqual([0, 3_600_000, 100, 100]);
    expect(compileConfig({}).redisWaitLogMs).toBe(30_000);
  });

  it('refuses a database number beyond what Redis can number', () => {
    expect(() => parseRedisUrl(`redis://127.0.0.1:6379/${HUGE}`)).toThrow(
      `REDIS_URL database: "${HUGE}" is not allowed; expected a database number such as /0`,
    );
    expect(parseRedisUrl('redis://127.0.0.1:6379/15').db).toBe(15);
  });
});

describe('when an invalid value is very long', () => {
  it('echoes its first 80 characters and its length', () => {
    const long = '7'.repeat(100_000);
    const error = new InvalidInputError('n', long, 'sizes from 1 to 32');
    expect(error.message).toBe(
      `n: "${'7'.repeat(79)}… (100002 characters) is not allowed; expected sizes from 1 to 32`,
    );
  });
});
