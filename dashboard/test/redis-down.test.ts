// The dashboard while Redis is away: every route that reads Redis answers 503 at once with a JSON
// error (bull-board included), the health check still answers, and close() ends within the
// grace time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfig } from '@weak-queens/shared/contracts';
import { createDashboardServer, type DashboardServer } from '../src/index.js';
import { http, silent, startRedis, type TestRedis, uniquePrefix } from './helpers.js';

const UNAVAILABLE = {
  error: { code: 'redis_unavailable', message: 'Redis cannot be reached right now' },
};

describe('when Redis goes away under a running dashboard', () => {
  let redis: TestRedis;
  let server: DashboardServer;
  let base: string;

  beforeAll(async () => {
    redis = await startRedis();
    server = createDashboardServer({
      config: compileConfig({ REDIS_URL: redis.url, WQ_PREFIX: uniquePrefix() }),
      logger: silent,
      port: 0,
      pollMs: 200,
      graceMs: 1500,
    });
    const url = await server.listen();
    base = `http://127.0.0.1:${new URL(url).port}`;
    // Served while Redis is up, so the connections were open before it went away.
    expect((await http(base, '/api/sweeps')).status).toBe(200);
    expect((await http(base, '/queues/api/queues')).status).toBe(200);
    await redis.stop();
  });

  afterAll(async () => {
    await server?.close();
    // Stopped in beforeAll already, unless that failed first (stop is idempotent).
    await redis?.stop();
  });

  it.each([
    '/api/sweeps',
    '/api/workers',
    '/api/results?n=4',
    '/metrics',
    '/queues',
    '/queues/api/queues',
  ])('answers GET %s with 503 and a JSON error within a second', async (path) => {
    const started = Date.now();
    const answer = await http(base, path);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(503);
    expect(answer.json()).toEqual(UNAVAILABLE);
  });

  it('still answers the health check', async () => {
    const answer = await http(base, '/healthz');
    expect([answer.status, answer.text]).toEqual([200, 'ok\n']);
  });

  it('closes within its grace time', async () => {
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1500 + 1000);
  });
});
