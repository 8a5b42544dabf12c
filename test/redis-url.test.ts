// A REDIS_URL that cannot work: a database the server does not have fails with one line (never a
// silent database 0); a port where something else answers gets a few tries and a clear exit from
// the CLI, and a calm wait from a worker, which starts once Redis answers there.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { RedisServer } from '@weak-queens/shared/process';
import { SweepRegistry } from '@weak-queens/shared/client';
import { startWorker, stopWorkers, uniquePrefix, until, pipelineFixture } from './src/index.js';
import { runNpmStart, runWq } from './src/wq-cli.js';

describe('when REDIS_URL is set but empty', () => {
  const refused = (prefix: string): string =>
    `${prefix}: REDIS_URL: "" is not allowed; expected redis://[user:password@]host[:port][/db] or rediss:// for TLS (unset it for redis://127.0.0.1:6379)\n`;

  it.each([['status'], ['sweep', '4', '--wait'], ['results', '4'], ['worker'], ['dashboard']])(
    'wq %s exits with 2 and one line naming it, never trying the default server',
    async (...args) => {
      const run = await runWq(args, { url: '', prefix: uniquePrefix('blank-url') });
      expect(run).toEqual({ code: 2, stdout: '', stderr: refused(`wq ${args[0]}`) });
    },
  );

  it('npm start exits with 2 and the same line, starting no Redis of its own', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'wq-blank-url-'));
    try {
      const run = await runNpmStart(['--exit', '--n', '4'], {
        cwd,
        env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'warn' },
      });
      expect([run.code, run.stdout]).toEqual([2, '']);
      // Its log (JSON lines) says only that it stopped; the one plain line is the refusal.
      const lines = run.stderr.split('\n').filter(Boolean);
      const logged = lines.filter((line) => line.startsWith('{'));
      expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
        'embedded pipeline stopped',
      ]);
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([
        refused('npm start').trimEnd(),
      ]);
      expect(existsSync(join(cwd, '.data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

const NOT_REDIS =
  'something answers there, but not a Redis server (is REDIS_URL the right host and port?)';

describe('when REDIS_URL names a database the server does not have', () => {
  const redis = pipelineFixture();
  const prefix = uniquePrefix('db');
  let url: string;

  beforeAll(() => {
    url = `${redis.url}/99`;
  });

  const refused = (command: string) =>
    new RegExp(
      `^wq ${command}: REDIS_URL database: "99" is not allowed; expected a database this server has, /0 to /\\d+\\n$`,
    );

  it('wq status and wq sweep exit with 2 and one line, and write nothing to database 0', async () => {
    const status = await runWq(['status'], { url, prefix });
    expect([status.code, status.stdout]).toEqual([2, '']);
    expect(status.stderr).toMatch(refused('status'));
    const sweep = await runWq(['sweep', '4'], { url, prefix });
    expect([sweep.code, sweep.stdout]).toEqual([2, '']);
    expect(sweep.stderr).toMatch(refused('sweep'));
    const db0 = new Redis(redis.url);
    try {
      expect(await db0.keys(`${prefix}*`)).toEqual([]);
    } finally {
      db0.disconnect();
    }
  });

  it('a worker exits with 2 and the same line', async () => {
    let stderr = '';
    const worker = spawnWorkerProcess({
      env: { ...process.env, REDIS_URL: url, WQ_PREFIX: prefix, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(worker)).toBe(2);
    expect(stderr).toMatch(refused('worker'));
  });
});

describe('when REDIS_URL points at a port where an HTTP server answers', () => {
  let http: Server;
  let port: number;
  let redisServer: RedisServer | undefined;
  let workers: ChildProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wq-not-redis-'));

  beforeAll(async () => {
    http = createServer((_req, res) => res.end('hello\n'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await stopWorkers(workers);
    workers = [];
  });

  afterAll(async () => {
    http.closeAllConnections();
    http.close();
    await redisServer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wq status tries a few times, says so once, and exits with 1 and a clear line', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const started = Date.now();
    const run = await runWq(['status'], { url, prefix: 'unused' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect([run.code, run.stdout]).toEqual([1, '']);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `wq status: Redis at ${url}: ${NOT_REDIS}; trying again (5 attempts in all)`,
    );
    expect(lines[1]).toMatch(
      new RegExp(`^wq status: gave up after 5 attempts in \\d+ s: Redis at ${url}: `),
    );
    expect(lines[1]?.endsWith(NOT_REDIS)).toBe(true);
  });

  it('a worker waits with one log line, then starts once Redis answers on that port', async () => {
    const prefix = uniquePrefix('wait');
    const url = `redis://127.0.0.1:${port}`;
    const logs: Record<string, unknown>[] = [];
    const worker = startWorker({ url, prefix, onLog: (entry) => logs.push(entry) });
    workers.push(worker);
    await new Promise((r) => setTimeout(r, 4000));
    // About four reconnect attempts so far; a line per attempt was twenty a second before.
    expect(logs.map((l) => [l.level, l.msg, l.reason])).toEqual([
      [40, 'cannot reach Redis; waiting for it', `Redis at ${url}: ${NOT_REDIS}`],
    ]);
    expect(worker.exitCode).toBeNull();

    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    redisServer = await RedisServer.start({ dir, port, appendOnly: false });
    await until('the worker to start', () => logs.some((l) => l.msg === 'worker started'));
    const client = new Redis(url);
    try {
      const registry = new SweepRegistry(client, prefix);
      await until(
        'the worker to register',
        async () => (await registry.liveWorkers()).length === 1,
      );
    } finally {
      client.disconnect();
    }
    expect(logs.map((l) => l.msg)).toEqual([
      'cannot reach Redis; waiting for it',
      'Redis reachable again',
      'worker started',
    ]);
  });
});
