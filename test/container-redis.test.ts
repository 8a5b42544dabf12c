// Where the test run has a container engine, the tests' Redis (startTestRedis: the pipeline,
// fault and other end-to-end suites) is a container started by Testcontainers on the run's Redis
// image, not a private redis-server; it answers on loopback and is gone once stopped.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { containerEngine, docker, type ReadyEngine } from './src/container-engine.js';
import { startTestRedis } from './src/test-redis.js';

const engine = containerEngine();

describe.skipIf(!engine || process.env.REDIS_URL)(
  'when the test run has a container engine',
  () => {
    it("gives the tests' Redis from Testcontainers, and removes it when stopped", async () => {
      const redis = await startTestRedis();
      const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      try {
        expect(redis.kind).toBe('container');
        expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
        expect(await client.ping()).toBe('PONG');
        const running = await docker(
          engine as ReadyEngine,
          'ps',
          '-q',
          '--filter',
          `publish=${redis.url.split(':')[2]}`,
        );
        expect(running).not.toBe('');
      } finally {
        client.disconnect();
        await redis.stop();
      }
      const after = await docker(
        engine as ReadyEngine,
        'ps',
        '-aq',
        '--filter',
        `publish=${redis.url.split(':')[2]}`,
      );
      expect(after).toBe('');
    });
  },
);
