// A Redis for each test file, never the machine's shared one: REDIS_URL when set, else
// Testcontainers when a container runtime answers, else a private redis-server on a free port.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisServer } from '@weak-queens/producer';

export interface TestRedis {
  readonly url: string;
  readonly kind: 'env' | 'container' | 'redis-server';
  stop(): Promise<void>;
}

/** How long a container runtime may take to answer before we fall back to redis-server. */
const RUNTIME_PROBE_MS = 3000;

export async function startTestRedis(): Promise<TestRedis> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) return { url: fromEnv, kind: 'env', stop: async () => {} };
  const container = await tryContainer();
  if (container) return container;
  const dir = mkdtempSync(join(tmpdir(), 'wq-test-redis-'));
  const server = await RedisServer.start({ dir, appendOnly: false });
  return {
    url: server.url,
    kind: 'redis-server',
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function tryContainer(): Promise<TestRedis | undefined> {
  // Without a socket or DOCKER_HOST there is no runtime to ask (a bare `docker` client is not one).
  if (!process.env.DOCKER_HOST && !existsSync('/var/run/docker.sock')) return undefined;
  try {
    const tc = await import('testcontainers');
    const probe = tc.getContainerRuntimeClient();
    const timeout = new Promise<undefined>((resolve) =>
      setTimeout(() => resolve(undefined), RUNTIME_PROBE_MS),
    );
    if (!(await Promise.race([probe, timeout]))) return undefined;
    const started = await new tc.GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return {
      url: `redis://${started.getHost()}:${started.getMappedPort(6379)}`,
      kind: 'container',
      stop: async () => {
        await started.stop();
      },
    };
  } catch {
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
