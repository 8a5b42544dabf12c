// REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster, and the hash tag it needs in WQ_PREFIX.
import { describe, expect, it } from 'vitest';
import { compileConfig } from '../src/contracts/index.js';

describe('when REDIS_CLUSTER_NODES is set', () => {
  it('takes host:port entries and is named in place of REDIS_URL', () => {
    const config = compileConfig({
      REDIS_URL: 'redis://elsewhere:6379',
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002',
      WQ_PREFIX: '{wq}',
    });
    expect(config.clusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(config.redisUrl).toBe('redis-cluster://10.0.0.1:7000,redis-b:7001,[::1]:7002');
    expect(config.prefix).toBe('{wq}');
  });

  it('is absent when unset or blank', () => {
    expect(compileConfig({}).clusterNodes).toBeUndefined();
    expect(compileConfig({ REDIS_CLUSTER_NODES: ' ' }).clusterNodes).toBeUndefined();
  });

  it('refuses an entry that is not host:port, naming it and what is allowed', () => {
    for (const bad of ['10.0.0.1', 'host:0', 'host:65536', 'redis://host:7000', '', 'a b:1']) {
      expect(() =>
        compileConfig({ REDIS_CLUSTER_NODES: `127.0.0.1:7000,${bad}`, WQ_PREFIX: '{wq}' }),
      ).toThrow(
        `REDIS_CLUSTER_NODES: "${bad}" is not allowed; expected comma-separated host:port entries such as 10.0.0.1:7000,10.0.0.2:7000 (port 1 to 65535)`,
      );
    }
  });

  it('refuses a WQ_PREFIX without a hash tag, the default "wq" included', () => {
    const message = (prefix: string): string =>
      `WQ_PREFIX: "${prefix}" is not allowed; expected a prefix with a hash tag such as "{wq}" when REDIS_CLUSTER_NODES is set (a Redis Cluster runs a script only when all its keys share one slot)`;
    expect(() => compileConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000' })).toThrow(message('wq'));
    expect(() =>
      compileConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', WQ_PREFIX: 'jobs' }),
    ).toThrow(message('jobs'));
    expect(
      compileConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', WQ_PREFIX: 'app-{wq}' }).prefix,
    ).toBe('app-{wq}');
  });
});
