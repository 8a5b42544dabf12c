// How Redis's refusals and a lost connection are named for a user, and how a client rides out
// an outage: retried while within the bound, one RedisUnavailableError after it.
import { describe, expect, it } from 'vitest';
import {
  InvalidInputError,
  namedRedisError,
  RedisOutOfMemoryError,
  RedisReadOnlyError,
  redisRefusalOf,
  RedisUnavailableError,
} from '../src/contracts/index.js';
import { OutageRider } from '../src/client/outage-rider.js';

const OOM = "OOM command not allowed when used memory > 'maxmemory'.";

/** What ioredis rejects an EXEC with when a command inside MULTI was refused. */
function execAbort(previous: Error): Error {
  return Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), {
    previousErrors: [previous],
  });
}

describe('when Redis refuses a write', () => {
  it('names OOM said plainly, inside a Lua script, and inside MULTI', () => {
    for (const err of [
      new Error(OOM),
      new Error(`${OOM} script: d96ca626f1ea141b44a856b312fc636d99aa9ea9, on @user_script:217.`),
      execAbort(new Error(OOM)),
    ]) {
      const named = redisRefusalOf(err);
      expect(named).toBeInstanceOf(RedisOutOfMemoryError);
      expect(named?.retryable).toBe(true);
      expect(named?.message).toBe(
        "Redis is out of memory and refuses writes (OOM command not allowed when used memory > 'maxmemory'); raise its maxmemory (CONFIG SET maxmemory <bytes>) or free memory, then run the command again",
      );
    }
  });

  it('names READONLY, as a setup error', () => {
    const named = redisRefusalOf(
      execAbort(new Error("READONLY You can't write against a read only replica.")),
    );
    expect(named).toBeInstanceOf(RedisReadOnlyError);
    expect(named?.retryable).toBe(false);
  });

  it('leaves every other error alone', () => {
    expect(redisRefusalOf(new Error('Missing lock for job n12-d7. moveToFinished'))).toBe(
      undefined,
    );
    expect(redisRefusalOf(execAbort(new Error('ERR wrong number of arguments')))).toBe(undefined);
    const input = new InvalidInputError('n', 99, 'an integer from 1 to 32');
    expect(namedRedisError(input)).toBe(input);
  });

  it('names a lost connection as Redis unavailable, not an unexpected error', () => {
    const maxRetries = new Error(
      'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
    );
    maxRetries.name = 'MaxRetriesPerRequestError';
    const named = namedRedisError(maxRetries);
    expect(named).toBeInstanceOf(RedisUnavailableError);
    expect((named as RedisUnavailableError).retryable).toBe(true);
  });
});

describe('when a client rides out an outage', () => {
  const lost = (): Error => new Error('Connection is closed.');

  /** A rider with a minute's bound that notes what it says of each outage in `said`. */
  const riderNoting = (said: string[]): OutageRider =>
    new OutageRider({
      url: 'redis://r:6379',
      boundMs: 60_000,
      onOutage: (err) => said.push(err.message),
      retryMs: 1,
    });

  it('retries a call that fails for want of Redis and says so once', async () => {
    const said: string[] = [];
    const rider = riderNoting(said);
    let calls = 0;
    const value = await rider.run(() => {
      calls += 1;
      return calls < 4 ? Promise.reject(lost()) : Promise.resolve('answer');
    });
    expect([value, calls, said]).toEqual(['answer', 4, ['Connection is closed.']]);
    expect(rider.ongoing).toBe(false);
  });

  it('retries through replies that say Redis cannot serve yet, as one outage said once', async () => {
    const said: string[] = [];
    const rider = riderNoting(said);
    const replies = [
      'LOADING Redis is loading the dataset in memory',
      'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing of slot',
      "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    ];
    const value = await rider.run(() => {
      const reply = replies.shift();
      return reply === undefined ? Promise.resolve('answer') : Promise.reject(new Error(reply));
    });
    expect([value, replies, said, rider.ongoing]).toEqual([
      'answer',
      [],
      ['LOADING Redis is loading the dataset in memory'],
      false,
    ]);
  });

  it('throws any other error at once', async () => {
    const rider = new OutageRider({ url: 'redis://r:6379', boundMs: 60_000, retryMs: 1 });
    const refused = new Error(OOM);
    await expect(rider.run(() => Promise.reject(refused))).rejects.toBe(refused);
  });

  it('gives up past the bound with one RedisUnavailableError naming the first reason', async () => {
    const rider = new OutageRider({ url: 'redis://r:6379', boundMs: 30, retryMs: 5 });
    const failure = await rider.run(() => Promise.reject(lost())).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect((failure as Error).message).toMatch(
      /^gave up after \d+ attempts in 0 s: Redis at redis:\/\/r:6379: cannot be reached \(Connection is closed\.\)$/,
    );
  });
});
