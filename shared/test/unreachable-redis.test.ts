// A Redis that cannot be reached is an outage (RedisUnavailableError, exit 1: trying later may
// help), never a bad REDIS_URL; a URL that cannot name a Redis at all stays bad input (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfig, InvalidInputError, type WqConfig } from '../src/contracts/index.js';
import {
  freePort,
  PipelineClient,
  probeRedis,
  RedisUnavailableError,
} from '../src/client/index.js';
import { EXIT_FAILED, EXIT_USAGE, exitCodeOf } from '../src/process/index.js';

describe('when nothing listens where REDIS_URL points', () => {
  let config: WqConfig;
  let client: PipelineClient;

  beforeAll(async () => {
    config = compileConfig({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    client = new PipelineClient(config);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('the probe throws RedisUnavailableError, unreachable, with exit code 1', async () => {
    const failure = await probeRedis(config, 1000).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect([(failure as RedisUnavailableError).problem, exitCodeOf(failure)]).toEqual([
      'unreachable',
      EXIT_FAILED,
    ]);
  });

  it('the pipeline client’s ping throws RedisUnavailableError, not InvalidInputError', async () => {
    const failure = await client.ping().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect(failure).not.toBeInstanceOf(InvalidInputError);
    expect([(failure as RedisUnavailableError).url, exitCodeOf(failure)]).toEqual([
      config.redisUrl,
      EXIT_FAILED,
    ]);
  });
});

describe('when REDIS_URL is not a Redis URL', () => {
  it('is bad input, exit code 2', () => {
    let failure: unknown;
    try {
      compileConfig({ REDIS_URL: 'http://127.0.0.1:6379' });
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(InvalidInputError);
    expect([(failure as InvalidInputError).field, exitCodeOf(failure)]).toEqual([
      'REDIS_URL',
      EXIT_USAGE,
    ]);
  });
});

describe('when REDIS_URL is set but empty', () => {
  const line =
    'REDIS_URL: "" is not allowed; expected redis://[user:password@]host[:port][/db] or rediss:// for TLS (unset it for redis://127.0.0.1:6379)';

  it('is bad input naming REDIS_URL and what is allowed, never the default server', () => {
    expect(() => compileConfig({ REDIS_URL: '' })).toThrow(line);
    expect(() => compileConfig({ REDIS_URL: '  ' })).toThrow(line.replace('""', '"  "'));
    expect(compileConfig({}).redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('only carries no credentials beside REDIS_CLUSTER_NODES', () => {
    const config = compileConfig({
      REDIS_URL: '',
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
      WQ_PREFIX: '{wq}',
    });
    expect([config.redisUrl, config.redis.password]).toEqual([
      'redis-cluster://127.0.0.1:7000',
      undefined,
    ]);
  });
});
