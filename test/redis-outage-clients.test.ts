// The user's window onto a sweep rides out what the workers ride out: Redis restarted (AOF on,
// same port) while `wq sweep --wait` submits, follows, or reads the last sums, and the command
// still prints every S(n) exactly, says "Redis unavailable, retrying…" at most once per outage
// and never a stack; `wq status --watch` goes on reporting. An outage longer than
// WQ_REDIS_OUTAGE_MS ends a follower with exit 1 and one line.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig, KNOWN_S } from '@weak-queens/shared/contracts';
import { FAST_STALLS, startWorker, stopWorkers, uniquePrefix } from './src/index.js';
import { restartableRedis } from './src/restart-redis.js';
import { sleep, until } from './src/wait.js';
import { spawnWatched } from './src/watched-child.js';
import { runWq, wqBinary } from './src/wq-cli.js';

const NS = Array.from({ length: 11 }, (_, i) => i + 1);
const RETRYING = /Redis unavailable, retrying…/g;
/** A stack frame, in whatever form Node prints it. */
const STACK = /^\s+at /m;

type Moment = (watcher: PipelineClient) => Promise<boolean>;

/** The sweep record is written before its first job: the submission is under way. */
const submitting: Moment = async (watcher) => (await watcher.registry.list()).length > 0;
/** Some of n = 11 is stored: the follower is polling progress. */
const following: Moment = async (watcher) => {
  let units = 0;
  for (let d = 0; d < 11; d++) units += await watcher.store.unitCount(11, d);
  return units >= 2;
};
/** S(10) is published: the last sum is close. */
const finishing: Moment = async (watcher) => (await watcher.store.sums([10])).has(10);

describe('when Redis restarts while `wq sweep 1-11 --wait` runs', () => {
  const redis = restartableRedis('outage');
  let workers: ChildProcess[] = [];

  afterEach(async () => {
    await stopWorkers(workers);
    workers = [];
  });

  it.each([
    ['while it submits', submitting],
    ['while it follows progress', following],
    ['as the last sums are published', finishing],
  ] as const)('prints every S(n) exactly when the restart comes %s', async (_, moment) => {
    const url = redis.url;
    const prefix = uniquePrefix('outage');
    workers = [0, 1].map(() => startWorker({ url, prefix, env: { ...FAST_STALLS } }));
    const follower = runWq(['sweep', '1-11', '--wait', '--json'], { url, prefix });

    const watcher = new PipelineClient(compileConfig({ REDIS_URL: url, WQ_PREFIX: prefix }));
    try {
      await until('the moment of the restart', () => moment(watcher), 90_000, 20);
    } finally {
      await watcher.close();
    }
    await redis.restart();

    const run = await follower;
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; S: string });
    expect(lines.map((l) => [l.n, l.S])).toEqual(NS.map((n) => [n, KNOWN_S[n - 1]]));
    // One outage: said at most once (a phase that did not touch Redis meanwhile says nothing).
    expect((run.stderr.match(RETRYING) ?? []).length, run.stderr).toBeLessThanOrEqual(1);
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr).not.toMatch(/unexpected error/);
    // The last progress line says what the results say.
    const progress = run.stderr.split('\n').filter((l) => / n {2}\d+\/\d+ units/.test(l));
    expect(progress.at(-1) ?? '', run.stderr).toMatch(/ 11\/11 n /);
  });
});

describe('when Redis restarts under `wq status --watch`', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wq-outage-watch-'));
  let server: RedisServer;

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so once and goes on reporting', async () => {
    server = await RedisServer.start({ dir, appendOnly: true });
    const watch = spawnWatched(process.execPath, [wqBinary(), 'status', '--watch'], {
      env: {
        ...process.env,
        REDIS_URL: server.url,
        WQ_PREFIX: uniquePrefix('watch'),
        LOG_LEVEL: 'warn',
      },
    });
    const reports = (): number => (watch.stdout.match(/^workers: 0 live$/gm) ?? []).length;
    try {
      await until('a first report', () => reports() >= 1);
      const port = server.port;
      await server.stop();
      await sleep(3000);
      const before = reports();
      server = await RedisServer.start({ dir, port, appendOnly: true });
      await until('a report after the restart', () => reports() > before);
      expect((watch.stderr.match(RETRYING) ?? []).length, watch.stderr).toBe(1);
      expect(watch.stderr).toMatch(/^wq status: Redis unavailable, retrying… \(/);
      expect(watch.stderr).not.toMatch(STACK);
      expect(watch.child.exitCode).toBeNull();
    } finally {
      watch.child.kill('SIGINT');
      await watch.exited;
    }
  });
});

describe('when Redis stays away longer than WQ_REDIS_OUTAGE_MS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wq-outage-long-'));
  let server: RedisServer | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('`wq sweep --wait` gives up with exit 1 and one line naming Redis', async () => {
    server = await RedisServer.start({ dir, appendOnly: false });
    const url = server.url;
    const prefix = uniquePrefix('outage-long');
    // No worker: the sweep waits, so the follower is polling when Redis goes.
    const follower = runWq(['sweep', '6', '--wait'], {
      url,
      prefix,
      WQ_REDIS_OUTAGE_MS: '3000',
    });
    const watcher = new PipelineClient(compileConfig({ REDIS_URL: url, WQ_PREFIX: prefix }));
    try {
      await until('the sweep to be queued', async () => {
        const [sweep] = await watcher.registry.list();
        return sweep !== undefined && (await watcher.jobTotal()) > 0;
      });
    } finally {
      await watcher.close();
    }
    await sleep(500);
    await server.stop();
    server = undefined;

    const run = await follower;
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect((run.stderr.match(RETRYING) ?? []).length, run.stderr).toBe(1);
    const failures = lines.filter((l) => /gave up/.test(l));
    expect(failures, run.stderr).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^wq sweep: gave up after \\d+ attempts in \\d+ s: Redis at ${url.replace(/[.]/g, '\\.')}: cannot be reached`,
      ),
    );
    expect(run.stderr).not.toMatch(STACK);
    expect(run.stderr).not.toMatch(/unexpected error/);
  });
});
