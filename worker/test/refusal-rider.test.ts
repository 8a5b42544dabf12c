// A write Redis refuses for a while (out of memory) is tried again until Redis takes it, said
// once; a refusal that outlasts the bound, or any other error, is thrown at once, named.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisOutOfMemoryError } from '@weak-queens/shared/contracts';
import { rideRefusals } from '../src/refusal-rider.js';
import { type PrivateRedis, startPrivateRedis } from './private-redis.js';

describe('when Redis refuses writes for want of memory', () => {
  let server: PrivateRedis;
  let redis: Redis;
  const reported: string[] = [];
  const report = (refusal: Error, what: string) => reported.push(`${what}: ${refusal.name}`);

  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new Redis({ port: server.port, maxRetriesPerRequest: 0 });
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it('writes once Redis takes writes again, reporting each refusal', async () => {
    reported.length = 0;
    await redis.config('SET', 'maxmemory', '1');
    const freed = setTimeout(() => void redis.config('SET', 'maxmemory', '0'), 1500);
    const admin = new Redis({ port: server.port });
    try {
      const written = await rideRefusals('unit', () => redis.set('wq-test:unit', '42'), {
        limitMs: 10_000,
        report,
        firstPauseMs: 100,
      });
      expect(written).toBe('OK');
      expect(await admin.get('wq-test:unit')).toBe('42');
    } finally {
      clearTimeout(freed);
      admin.disconnect();
    }
    // Each refusal reported (the worker's back-off says a kind once an episode).
    expect(reported.length).toBeGreaterThanOrEqual(1);
    expect(new Set(reported)).toEqual(new Set(['unit: RedisOutOfMemoryError']));
  });

  it('gives up past the bound, naming the refusal', async () => {
    await redis.config('SET', 'maxmemory', '1');
    try {
      await expect(
        rideRefusals('unit', () => redis.set('wq-test:other', '1'), {
          limitMs: 300,
          report,
          firstPauseMs: 100,
        }),
      ).rejects.toBeInstanceOf(RedisOutOfMemoryError);
    } finally {
      await redis.config('SET', 'maxmemory', '0');
    }
  });

  it('throws any other error at once, without trying again', async () => {
    let calls = 0;
    const write = () => {
      calls++;
      return redis.call('NO-SUCH-COMMAND');
    };
    await expect(rideRefusals('unit', write, { limitMs: 10_000, report })).rejects.toThrow(
      /unknown command/i,
    );
    expect(calls).toBe(1);
  });
});
