// A Redis for each test file, never the machine's shared one: REDIS_URL when set, else a
// container started by Testcontainers when the test run has a container engine (the global
// set-up's, on the Redis image it built or pulled), else a private redis-server on a free port.
// Under CI=1 the engine the set-up started must serve: a container that fails to start fails the
// test rather than falling back, so CI never passes on fewer containers than it claims.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { RedisServer } from '@weak-queens/shared/process';

export interface TestRedis {
  readonly url: string;
  readonly kind: 'env' | 'container' | 'redis-server';
  stop(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) return { url: fromEnv, kind: 'env', stop: async () => {} };
  const container = await tryContainer();
  if (container) return container;
  const server = await RedisServer.start({ appendOnly: false });
  return { url: server.url, kind: 'redis-server', stop: () => server.stop() };
}

async function tryContainer(): Promise<TestRedis | undefined> {
  const engine = inject('containerEngine');
  if (!engine || 'missing' in engine) return undefined;
  // Ryuk (Testcontainers' reaper) is an image no registry gives us here: the test stops its own
  // container, and the global set-up removes anything left when it stops the engine. Ports are
  // published on loopback and reached there.
  process.env.DOCKER_HOST = engine.dockerHost;
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
  try {
    const tc = await import('testcontainers');
    const started = await new tc.GenericContainer(engine.redisImage)
      .withExposedPorts(6379)
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
      .withWaitStrategy(tc.Wait.forLogMessage(/Ready to accept connections/))
      .start();
    return {
      url: `redis://${started.getHost()}:${started.getMappedPort(6379)}`,
      kind: 'container',
      stop: async () => {
        await started.stop({ timeout: 2_000 });
      },
    };
  } catch (err) {
    if (process.env.CI && process.env.CI !== 'false') throw err;
    console.warn(`Redis container did not start (${(err as Error).message}); using redis-server`);
    return undefined;
  }
}

/** A key prefix no other test uses, as a cluster hash tag (like production's `{wq}`). */
export function uniquePrefix(label = 't'): string {
  return `{${label}-${randomUUID().slice(0, 8)}}`;
}

/** Deletes every key under `prefix` (the queues and the result store of one test). */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
