// Replies that say Redis cannot serve a command yet (LOADING, CLUSTERDOWN, TRYAGAIN, MASTERDOWN)
// are an outage, ridden out like a lost connection; a command started while Redis is away waits
// for it up to the outage bound, but not for something that is not Redis.
import { describe, expect, it } from 'vitest';
import { namedRedisError, RedisUnavailableError, compileConfig } from '../src/contracts/index.js';
import { isConnectionError } from '../src/client/connection.js';
import { isOutage, waitForRedis } from '../src/client/redis-probe.js';
import { freePort } from '../src/client/free-port.js';

const TRANSIENT_REPLIES = [
  'LOADING Redis is loading the dataset in memory',
  'CLUSTERDOWN The cluster is down',
  'CLUSTERDOWN Hash slot not served',
  'TRYAGAIN Multiple keys request during rehashing of slot',
  "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
];

describe('when Redis answers that it cannot serve a command yet', () => {
  it.each(TRANSIENT_REPLIES)(
    'takes "%s" as Redis being away, said plainly or inside a script',
    (reply) => {
      expect(isConnectionError(new Error(reply))).toBe(true);
      // BullMQ's commands are Lua scripts: the reply comes wrapped.
      const wrapped = new Error(
        `ERR Error running script (call to f_4c1d1b1a): @user_script:12: ${reply} script: 4c1d1b1a, on @user_script:12.`,
      );
      expect(isConnectionError(wrapped)).toBe(true);
    },
  );

  it('takes no other reply for one, even one that contains such a word', () => {
    expect(isConnectionError(new Error('WRONGTYPE Operation against a key'))).toBe(false);
    expect(isConnectionError(new Error("ERR unknown command 'TRYAGAINLATER'"))).toBe(false);
    expect(isConnectionError(new Error('ERR no such key: RELOADING'))).toBe(false);
  });

  it('names LOADING as loading and the others as unreachable, for a user', () => {
    const loading = namedRedisError(new Error(TRANSIENT_REPLIES[0]), 'redis://r:6379');
    expect((loading as Error).message).toBe('Redis at redis://r:6379: is loading its data');
    const down = namedRedisError(new Error(TRANSIENT_REPLIES[1]), 'redis://r:6379');
    expect(down).toBeInstanceOf(RedisUnavailableError);
    expect((down as Error).message).toBe(
      'Redis at redis://r:6379: cannot be reached (CLUSTERDOWN The cluster is down)',
    );
  });
});

describe('when a command starts while Redis is away', () => {
  it('counts an outage against its bound, not against the attempts', async () => {
    expect(isOutage(new RedisUnavailableError('u', 'unreachable', 'x'))).toBe(true);
    expect(isOutage(new RedisUnavailableError('u', 'timeout', 'x'))).toBe(true);
    expect(isOutage(new RedisUnavailableError('u', 'loading', 'x'))).toBe(true);
    expect(isOutage(new RedisUnavailableError('u', 'not-redis', 'x'))).toBe(false);
    expect(isOutage(new RedisUnavailableError('u', 'other', 'x'))).toBe(false);

    // Nothing listens on this port: every probe is refused at once.
    const url = `redis://127.0.0.1:${await freePort()}`;
    const config = compileConfig({ REDIS_URL: url });
    const pauses: number[] = [];
    const started = Date.now();
    const failure = await waitForRedis(config, {
      attempts: 2,
      outageMs: 1200,
      delayMs: () => 100,
      onRetry: (_err, _attempt, pause) => pauses.push(pause),
    }).catch((err: unknown) => err);
    const waited = Date.now() - started;
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect((failure as RedisUnavailableError).problem).toBe('unreachable');
    expect((failure as Error).message).toMatch(
      new RegExp(`^gave up after \\d+ attempts in 1 s: Redis at ${url}: cannot be reached \\(`),
    );
    // Far more than 2 probes, over the whole bound and not much longer.
    expect(pauses.length).toBeGreaterThan(2);
    expect(waited).toBeGreaterThanOrEqual(1200);
    expect(waited).toBeLessThan(4000);
  });
});
