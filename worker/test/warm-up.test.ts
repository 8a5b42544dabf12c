// The worker's warm-up sweep (warm-up.ts) in a private Redis: it runs by default, leaves no key
// behind, never reaches the sweep's own keys, gives way to a real sweep (whose results stay
// exact) and ends with the worker.
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, KNOWN_S, type WqConfig } from '@weak-queens/shared/contracts';
import { startWorkerService, type WorkerService } from '../dist/index.js';
import { WARM_UP_NS } from '../dist/warm-up.js';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';

let server: PrivateRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startPrivateRedis();
  redis = new Redis({ port: server.port });
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

const workers: WorkerService[] = [];
const clients: PipelineClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(workers.splice(0).map((w) => w.close()));
});

/** A worker in its own prefix, with the log lines it writes. */
async function startWorker(
  prefix: string,
): Promise<{ worker: WorkerService; config: WqConfig; lines: Record<string, unknown>[] }> {
  const config = compileConfig({
    REDIS_URL: `redis://127.0.0.1:${server.port}`,
    WQ_PREFIX: prefix,
  });
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const worker = await startWorkerService({ config, logger, concurrency: 2 });
  workers.push(worker);
  return { worker, config, lines };
}

const warmUpOver = async (lines: Record<string, unknown>[]): Promise<Record<string, unknown>> => {
  for (let waited = 0; waited < 30_000; waited += 20) {
    const line = lines.find((l) => l.msg === 'warm-up sweep over');
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no "warm-up sweep over" line within 30 s');
};

const keysUnder = (pattern: string): Promise<string[]> => redis.keys(pattern);

describe('when a worker starts with the defaults', () => {
  it('counts the warm-up sweep, then deletes every key of it', async () => {
    const { lines } = await startWorker('wu-idle');
    const over = await warmUpOver(lines);
    expect(over).toMatchObject({ ns: `1..${WARM_UP_NS.length}`, outcome: 'done' });
    expect(await keysUnder('wu-idle:warm-up:*')).toEqual([]);
    // Nothing of it is a result of the worker's own prefix.
    const client = new PipelineClient(
      compileConfig({
        REDIS_URL: `redis://127.0.0.1:${server.port}`,
        WQ_PREFIX: 'wu-idle',
      }),
    );
    clients.push(client);
    const results = await client.results(WARM_UP_NS);
    expect(results.filter((r) => r.S !== undefined)).toEqual([]);
  });
});

describe('when a worker was killed during its warm-up', () => {
  it("deletes that warm-up's keys with its own, and no other key", async () => {
    await redis.set('wu-stale:warm-up:gone-4242:count:meta', 'left');
    await redis.hset('wu-stale:warm-up:gone-4242:results', 'n', '1');
    await redis.set('wu-stale:kept', 'mine');
    const { lines } = await startWorker('wu-stale');
    expect(await warmUpOver(lines)).toMatchObject({ outcome: 'done' });
    expect(await keysUnder('wu-stale:warm-up:*')).toEqual([]);
    expect(await redis.get('wu-stale:kept')).toBe('mine');
  });
});

describe('when a sweep comes while the worker warms up', () => {
  it('gives way: the sweep is exact and no warm-up key is left', async () => {
    const { config, lines } = await startWorker('wu-busy');
    const client = new PipelineClient(config);
    clients.push(client);
    // At once: the warm-up is then at its start (the kernel threads' own) or in its sweep.
    const submitted = await client.submit([9, 11]);
    await client.waitFor(submitted.sweep.id);
    const results = await client.results([9, 11]);
    // KNOWN_S lists S(1), S(2), …
    expect(results.map((r) => [r.n, r.S])).toEqual([
      [9, KNOWN_S[8]],
      [11, KNOWN_S[10]],
    ]);
    await warmUpOver(lines);
    expect(await keysUnder('wu-busy:warm-up:*')).toEqual([]);
    // Only the sweep's n are stored in the worker's prefix.
    const stored = await client.results(WARM_UP_NS);
    expect(stored.filter((r) => r.S !== undefined).map((r) => r.n)).toEqual([9]);
  });
});

describe('when the worker closes during its warm-up', () => {
  it('ends it and deletes its keys first', async () => {
    const { worker } = await startWorker('wu-close');
    await worker.close();
    expect(await keysUnder('wu-close:warm-up:*')).toEqual([]);
  });
});
