// A `wq` command started while Redis is already away rides the outage out as it would one met
// mid-run: it says once that it waits (for whom, how long at most), goes on when Redis comes
// back, and gives up with one line only after WQ_REDIS_OUTAGE_MS. A Redis that answers LOADING
// while it reads a large dataset from disk is waited for the same way. A REDIS_URL that can
// never work still fails at once. Real redis-servers, no mocks.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@weak-queens/shared/client';
import { RedisServer } from '@weak-queens/shared/process';
import { knownSums } from '@weak-queens/shared/contracts';
import {
  sleep,
  spawnWatched,
  startWorker,
  stopWorkers,
  uniquePrefix,
  until,
  type WatchedChild,
} from './src/index.js';
import { npmStartScript, runWq, sumLines, wqBinary } from './src/wq-cli.js';

/** A stack frame, in whatever form Node prints it. */
const STACK = /^\s+at /m;

/** `wq args` on `url` and `prefix`, watched while it runs. */
function startWq(args: readonly string[], url: string, prefix: string): WatchedChild {
  return spawnWatched(process.execPath, [wqBinary(), ...args], {
    env: { ...process.env, REDIS_URL: url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' },
  });
}

/** S(1..k) as `wq sweep --json` prints them. */
function exactSums(k: number): [number, string][] {
  return [...knownSums(Array.from({ length: k }, (_, i) => i + 1))];
}

const dir = mkdtempSync(join(tmpdir(), 'wq-down-at-start-'));
let server: RedisServer | undefined;
/** A server still loading its data when the test ended (stopped all the same). */
let starting: Promise<RedisServer> | undefined;
let workers: ChildProcess[] = [];

afterEach(async () => {
  if (starting) server = await starting.catch(() => undefined);
  starting = undefined;
  await stopWorkers(workers);
  workers = [];
  await server?.stop();
  server = undefined;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('when Redis is down as a command starts', () => {
  it('`wq sweep 1-8 --wait` waits for it, says so once, and prints every S(n) exactly', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const prefix = uniquePrefix('down-at-start');
    const sweep = startWq(['sweep', '1-8', '--wait', '--json'], url, prefix);
    workers = [startWorker({ url, prefix })];
    await until('the command to say it waits', () => sweep.stderr.includes('waiting for Redis'));
    // Well past the ~4 s of probes after which the command used to give up.
    await sleep(6000);
    server = await RedisServer.start({ dir: join(dir, 'sweep'), port, appendOnly: true });

    expect(await sweep.exited, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(exactSums(8));
    const lines = sweep.stderr.split('\n').filter((l) => /Redis/.test(l));
    expect(lines, sweep.stderr).toEqual([
      `wq sweep: waiting for Redis at ${url}, at most 120 s (WQ_REDIS_OUTAGE_MS): it cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
      `wq sweep: Redis at ${url} answers now`,
    ]);
    expect(sweep.stderr).not.toMatch(STACK);
  });

  it('`npm start` on a REDIS_URL that is away waits for it and prints every S(n) exactly', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const start = spawnWatched(
      process.execPath,
      [npmStartScript(), '--n', '1-6', '--json', '--exit', '--workers', '1'],
      {
        env: {
          ...process.env,
          REDIS_URL: url,
          WQ_PREFIX: uniquePrefix('start-down'),
          LOG_LEVEL: 'warn',
        },
      },
    );
    await until('npm start to say it waits', () => start.stderr.includes('waiting for Redis'));
    // Well past the five probes after which it used to give up.
    await sleep(6000);
    server = await RedisServer.start({ dir: join(dir, 'start'), port, appendOnly: true });

    expect(await start.exited, start.stderr).toBe(0);
    expect(sumLines(start.stdout)).toEqual(exactSums(6));
    // One line for the one outage, however many probes it took.
    expect(start.stderr.split('waiting for Redis').length - 1, start.stderr).toBe(1);
    expect(start.stderr).not.toMatch(STACK);
  });

  it('`wq status` gives up after WQ_REDIS_OUTAGE_MS with exit 1 and one line', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const started = Date.now();
    const run = await runWq(['status'], { url, prefix: 'unused', WQ_REDIS_OUTAGE_MS: '6000' });
    const waited = Date.now() - started;
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(waited).toBeGreaterThanOrEqual(6000);
    expect(waited).toBeLessThan(60_000);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe(
      `wq status: waiting for Redis at ${url}, at most 6 s (WQ_REDIS_OUTAGE_MS): it cannot be reached (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^wq status: gave up after \\d+ attempts in (6|7|8) s: Redis at ${url.replace(/[.]/g, '\\.')}: cannot be reached \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
      ),
    );
    expect(lines).toHaveLength(2);
  });

  it('a REDIS_URL that can never work still fails at once, as bad input', async () => {
    const started = Date.now();
    const run = await runWq(['status'], { url: 'http://127.0.0.1:6379', prefix: 'unused' });
    // Nowhere near the 120 s an outage may last: no probe is made (a loaded machine is slow
    // enough to start Node as it is).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^wq status: REDIS_URL: "http:\/\/127\.0\.0\.1:6379" is not allowed/,
    );
  });
});

describe('when Redis answers LOADING while it reads a large dataset', () => {
  it('a worker and `wq sweep 1-6 --wait` wait it out and the sums are exact', async () => {
    // A dump of 20,000 keys, loaded a key every millisecond, with Redis answering clients
    // between every KiB read: some twenty seconds of real LOADING replies.
    const loadDir = join(dir, 'loading');
    const seeding = (server = await RedisServer.start({
      dir: loadDir,
      appendOnly: false,
      extraArgs: ['--enable-debug-command', 'yes'],
    }));
    const seed = new Redis(seeding.url);
    await seed.call('DEBUG', 'POPULATE', '20000');
    await seed.save();
    seed.disconnect();
    const port = seeding.port;
    await seeding.stop();
    server = undefined;
    const url = `redis://127.0.0.1:${port}`;
    starting = RedisServer.start({
      dir: loadDir,
      port,
      appendOnly: false,
      startTimeoutMs: 120_000,
      extraArgs: ['--key-load-delay', '1000', '--loading-process-events-interval-bytes', '1024'],
    });
    const probe = new Redis(url, { enableReadyCheck: false, retryStrategy: () => 50 });
    // Refused until the server listens: that is what the loop waits through.
    probe.on('error', () => undefined);
    let loadingSeen = '';
    for (let i = 0; i < 100 && !loadingSeen; i++) {
      loadingSeen = await probe.ping().then(
        () => 'answered',
        (err: Error) => (/LOADING/.test(err.message) ? err.message : ''),
      );
      if (!loadingSeen) await sleep(50);
    }
    probe.disconnect();
    expect(loadingSeen).toBe('LOADING Redis is loading the dataset in memory');

    const prefix = uniquePrefix('loading');
    workers = [startWorker({ url, prefix })];
    const sweep = startWq(['sweep', '1-6', '--wait', '--json'], url, prefix);
    expect(await sweep.exited, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(exactSums(6));
    const lines = sweep.stderr.split('\n').filter((l) => /Redis/.test(l));
    expect(lines, sweep.stderr).toEqual([
      `wq sweep: waiting for Redis at ${url}, at most 120 s (WQ_REDIS_OUTAGE_MS): it is loading its data`,
      `wq sweep: Redis at ${url} answers now`,
    ]);
    expect(sweep.stderr).not.toMatch(STACK);
  });
});
