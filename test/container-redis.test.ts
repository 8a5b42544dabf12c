// Where the test run has a container engine, the tests' Redis (startTestRedis: the pipeline,
// fault and other end-to-end suites) is a container started by Testcontainers on the run's Redis
// image, not a private redis-server; it answers on loopback and is gone once stopped.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { containerEngine, docker, type ReadyEngine } from './src/container-engine.js';
import { startTestRedis } from './src/test-redis.js';

const engine = containerEngine();

/** The ids of the containers that publish the port of `url` (`-q`: running; `-aq`: any). */
function containersPublishing(url: string, which: '-q' | '-aq'): Promise<string> {
  return docker(engine as ReadyEngine, 'ps', which, '--filter', `publish=${url.split(':')[2]}`);
}

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
        const running = await containersPublishing(redis.url, '-q');
        expect(running).not.toBe('');
      } finally {
        client.disconnect();
        await redis.stop();
      }
      const after = await containersPublishing(redis.url, '-aq');
      expect(after).toBe('');
    });
  },
);
