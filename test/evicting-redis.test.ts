// A Redis that cannot keep what it is given: one that may evict keys is refused at start by the
// CLI, a worker and the dashboard (exit 2, one line naming the policy and the fix); one that is
// out of memory or a read-only replica gets a one-line error naming the cause and the fix (no
// EXECABORT, no stack), a 503 from the dashboard; and a worker that meets the same error again
// and again says so once and backs off instead of logging thousands of lines a second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@weak-queens/shared/client';
import { createDashboardServer } from '@weak-queens/dashboard';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig, KNOWN_S, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { sleep, startWorker, stopWorkers, uniquePrefix, until } from './src/index.js';
import { runWq, sumsOf } from './src/wq-cli.js';

/** A stack frame, in whatever form Node prints it. */
const STACK = /^\s+at /m;

/**
 * A private redis-server for the enclosing describe block: started with the arguments
 * `extraArgs` gives (read when it starts), then `prepare`d, before the block's tests; stopped
 * and removed after them.
 */
function privateRedis(
  label: string,
  extraArgs: () => readonly string[] = () => [],
  prepare?: (url: string) => Promise<void>,
): { readonly server: RedisServer } {
  let dir: string | undefined;
  let started: RedisServer | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `wq-${label}-`));
    started = await RedisServer.start({ dir, appendOnly: false, extraArgs: extraArgs() });
    await prepare?.(started.url);
  });
  afterAll(async () => {
    await started?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server() {
      if (!started) throw new Error(`the ${label} redis-server has not started`);
      return started;
    },
  };
}

/** Fills Redis with about 4 MB, then caps it at 2 MB: every write is refused with OOM. */
async function exhaustMemory(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    await redis.eval(
      "for i = 1, 20000 do redis.call('SET', 'junk:' .. i, string.rep('x', 100)) end",
      0,
    );
    await redis.config('SET', 'maxmemory', '2mb');
  } finally {
    redis.disconnect();
  }
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('when Redis may evict keys (maxmemory-policy allkeys-lru)', () => {
  const redis = privateRedis('evict', () => [
    '--maxmemory',
    '2mb',
    '--maxmemory-policy',
    'allkeys-lru',
  ]);
  const prefix = uniquePrefix('evict');

  it.each([
    ['the CLI', ['sweep', '5', '--wait']],
    ['a worker', ['worker']],
    ['the dashboard', ['dashboard', '--port', '0']],
  ])('refuses %s with exit 2 and one line naming the policy and the fix', async (_, args) => {
    const run = await runWq(args, { url: redis.server.url, prefix });
    expect(run.code, run.stderr).toBe(2);
    const line = oneLine(run.stderr);
    expect(line).toMatch(/^wq (sweep|worker|dashboard): /);
    expect(line).toContain('maxmemory-policy allkeys-lru');
    expect(line).toContain('CONFIG SET maxmemory-policy noeviction');
    expect(run.stderr).not.toMatch(STACK);
  });
});

describe('when Redis is out of memory (noeviction, 2 MB)', () => {
  const redis = privateRedis('oom', undefined, exhaustMemory);
  const prefix = uniquePrefix('oom');

  it('`wq sweep` fails with exit 1 and one line naming OOM and the fix', async () => {
    const run = await runWq(['sweep', '5', '--wait'], { url: redis.server.url, prefix });
    expect(run.code, run.stderr).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      "wq sweep: Redis is out of memory and refuses writes (OOM command not allowed when used memory > 'maxmemory'); raise its maxmemory (CONFIG SET maxmemory <bytes>) or free memory, then run the command again",
    );
    expect(run.stderr).not.toMatch(/EXECABORT|unexpected error/);
  });

  it("answers the dashboard's POST /api/sweeps with 503 naming OOM", async () => {
    const server = createDashboardServer({
      config: compileConfig({ REDIS_URL: redis.server.url, WQ_PREFIX: prefix }),
      logger: createLogger({ level: 'silent', pretty: false }),
      port: 0,
      graceMs: 1000,
    });
    try {
      const base = await server.listen();
      const origin = new URL(base).origin;
      const token = 'ab'.repeat(32);
      const answer = await fetch(new URL('/api/sweeps', origin), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Cookie: `wq_csrf=${token}`,
          'X-CSRF-Token': token,
          Origin: origin,
        },
        body: JSON.stringify({ ns: '5' }),
      });
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('redis_out_of_memory');
      expect(body.error.message).toMatch(/^Redis is out of memory and refuses writes/);
    } finally {
      await server.close();
    }
  });
});

describe('when REDIS_URL names a read-only replica', () => {
  // Hooks run in reverse on the way out: the replica stops before its master.
  const master = privateRedis('master');
  const replica = privateRedis('replica', () => [
    '--replicaof',
    '127.0.0.1',
    String(master.server.port),
  ]);
  const prefix = uniquePrefix('replica');

  it.each([
    ['the CLI', ['sweep', '5', '--wait']],
    ['a worker', ['worker']],
  ])('refuses %s with exit 2 and one line naming READONLY and the fix', async (_, args) => {
    const run = await runWq(args, { url: replica.server.url, prefix });
    expect(run.code, run.stderr).toBe(2);
    const line = oneLine(run.stderr);
    expect(line).toContain('Redis is a read-only replica');
    expect(line).toContain('point REDIS_URL at its master');
    expect(run.stderr).not.toMatch(STACK);
  });
});

describe('when a worker meets the same Redis error again and again', () => {
  const redis = privateRedis('flood');
  const prefix = uniquePrefix('flood');

  it('logs a bounded number of lines and names the cause', async () => {
    const url = redis.server.url;
    const logs: Record<string, unknown>[] = [];
    const worker = startWorker({ url, prefix, concurrency: 2, onLog: (l) => logs.push(l) });
    try {
      await until('the worker to start', () => logs.some((l) => l.msg === 'worker started'));
      const submitted = await runWq(['sweep', '1-11'], { url, prefix });
      expect(submitted.code, submitted.stderr).toBe(0);
      // A unit counted: its record is in the store (a unit's own log line is at debug level).
      const probe = new Redis(url);
      await until(
        'a unit to be counted',
        async () => (await probe.keys(`${prefix}:results:units:*`)).length > 0,
      ).finally(() => probe.disconnect());
      await exhaustMemory(url);
      const before = logs.length;
      await sleep(5000);
      const during = logs.slice(before);
      // Before the back-off: thousands of lines a second, one per failed fetch.
      expect(during.length, JSON.stringify(during.slice(0, 5))).toBeLessThan(20);
      const said = logs.filter(
        (l) => typeof l.reason === 'string' && /out of memory/.test(l.reason),
      );
      expect(said.length).toBeGreaterThanOrEqual(1);
      expect(said.length).toBeLessThanOrEqual(2);
    } finally {
      await stopWorkers([worker]);
    }
  });
});

describe('when Redis runs out of memory for a few seconds during a sweep', () => {
  const redis = privateRedis('short-oom', () => ['--maxmemory-policy', 'noeviction']);
  const prefix = uniquePrefix('short-oom');

  it('rides it out: no unit fails for it, the cause is named once, and every S(n) is exact', async () => {
    const url = redis.server.url;
    const logs: Record<string, unknown>[] = [];
    const worker = startWorker({ url, prefix, concurrency: 2, onLog: (l) => logs.push(l) });
    const admin = new Redis(url);
    try {
      await until('the worker to start', () => logs.some((l) => l.msg === 'worker started'));
      // Small units, so that many are counted, and stored, while Redis refuses writes. The sweep
      // is queued first: what is ridden out here is the workers' writes.
      const submitted = await runWq(['sweep', '1-12'], { url, prefix, WQ_TARGET_SECONDS: '0.01' });
      expect(submitted.code, submitted.stderr).toBe(0);
      await until(
        'a unit to be counted',
        async () => (await admin.keys(`${prefix}:results:units:*`)).length > 0,
      );
      // No write fits: used memory is above the cap, and nothing may be evicted.
      await admin.config('SET', 'maxmemory', '1');
      await sleep(3000);
      await admin.config('SET', 'maxmemory', '0');
      const sweep = runWq(['sweep', '1-12', '--wait', '--json'], {
        url,
        prefix,
        WQ_TARGET_SECONDS: '0.01',
      });
      const run = await sweep;
      expect(run.code, run.stderr).toBe(0);
      expect(sumsOf(run.stdout)).toEqual(KNOWN_S.slice(0, 12));
      const failed = await admin.zcard(`${prefix}:${QUEUE_NAMES.count}:failed`);
      expect(failed).toBe(0);
      const said = logs.filter(
        (l) => typeof l.reason === 'string' && /out of memory/.test(l.reason),
      );
      expect(said.length).toBeGreaterThanOrEqual(1);
      expect(said.length).toBeLessThanOrEqual(2);
    } finally {
      admin.disconnect();
      await stopWorkers([worker]);
    }
  });
});
