// SIGTERM, SIGINT or SIGHUP during a unit: the worker hands it back within its grace period and
// another finishes it; a `wq worker` wrapper forwards the signal and never leaves its worker
// behind, even when it dies by kill -9; the dashboard ends within its grace time with Redis down.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnDashboardProcess } from '@weak-queens/producer';
import { QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { SweepRegistry } from '@weak-queens/shared/client';
import {
  deletePrefix,
  pidOfWorkerName,
  startTestRedis,
  startWorker,
  stopWorkers,
  type TestRedis,
  uniquePrefix,
  addLongUnit,
  pipelineFixture,
  until,
} from './src/index.js';
import { wqBinary } from './src/wq-cli.js';

/** A process closed on a stop signal exits as the signal would have ended it: 128 + its number. */
const STOPPED_BY = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

describe('when a worker receives SIGTERM during a unit', () => {
  const redis = pipelineFixture({ closeAfter: 'all' });
  let prefix: string;
  let queue: Queue;

  beforeAll(() => {
    const pipeline = redis.openPipeline('sigterm');
    prefix = pipeline.prefix;
    const count = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    pipeline.defer(() => count.close());
    queue = count;
  });

  it('hands the unit back and a second worker finishes it exactly', async () => {
    const job = await addLongUnit(queue, redis.url, prefix, 's-sigterm');
    const first = startWorker({
      url: redis.url,
      prefix,
      env: { WQ_SHUTDOWN_GRACE_MS: '200' },
    });
    await until('the unit to start', async () => (await job.getState()) === 'active');
    await new Promise((r) => setTimeout(r, 500));
    const sent = Date.now();
    first.kill('SIGTERM');
    expect(await exitOf(first)).toBe(STOPPED_BY.SIGTERM);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await queue.getJobState('n16-d15')).toBe('waiting');

    const second = startWorker({ url: redis.url, prefix });
    try {
      await until('the unit to complete', async () => (await job.getState()) === 'completed');
      const done = await queue.getJob('n16-d15');
      expect((done?.returnvalue as { value: string }).value).toBe('14772512');
      // Handing back spent no attempt: attempts = 1 would have failed it otherwise.
      expect(done?.attemptsMade).toBe(1);
    } finally {
      await stopWorkers([second]);
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('when a worker or its `wq worker` wrapper gets SIGHUP or dies', () => {
  let redis: TestRedis;
  let client: Redis;
  const opened: { prefix: string; queue: Queue }[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    client = new Redis(redis.url);
  });

  afterAll(async () => {
    for (const { prefix, queue } of opened) {
      await queue.close();
      await deletePrefix(redis.url, prefix);
    }
    client?.disconnect();
    await redis?.stop();
  });

  /** A queue with the unit, and the pid of the worker process once it runs it. */
  async function unitRunning(label: string, start: (prefix: string) => ChildProcess) {
    const prefix = uniquePrefix(label);
    const queue = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    opened.push({ prefix, queue });
    const job = await addLongUnit(queue, redis.url, prefix, 's-signals');
    const process = start(prefix);
    await until('the unit to start', async () => (await job.getState()) === 'active');
    const pid = pidOfWorkerName((await queue.getJob('n16-d15'))?.processedBy);
    expect(pid).toBeDefined();
    const registry = new SweepRegistry(client, prefix);
    await until('the worker to be listed', async () => (await registry.liveWorkers()).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    return { queue, process, pid: pid as number, registry };
  }

  function wrapper(prefix: string): ChildProcess {
    return spawn(process.execPath, [wqBinary(), 'worker', '--concurrency', '1'], {
      env: {
        ...process.env,
        REDIS_URL: redis.url,
        WQ_PREFIX: prefix,
        WQ_SHUTDOWN_GRACE_MS: '200',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
  }

  it('a worker closes on SIGHUP: unit handed back, no longer listed', async () => {
    const {
      queue,
      process: worker,
      registry,
    } = await unitRunning('hup', (prefix) =>
      startWorker({ url: redis.url, prefix, env: { WQ_SHUTDOWN_GRACE_MS: '200' } }),
    );
    const sent = Date.now();
    worker.kill('SIGHUP');
    expect(await exitOf(worker)).toBe(STOPPED_BY.SIGHUP);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await queue.getJobState('n16-d15')).toBe('waiting');
    expect(await registry.liveWorkers()).toEqual([]);
  });

  it('the wrapper forwards SIGHUP: both end, the unit is handed back', async () => {
    const { queue, process: wrapped, pid, registry } = await unitRunning('wrap-hup', wrapper);
    expect(pid).not.toBe(wrapped.pid);
    const sent = Date.now();
    let said = '';
    wrapped.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    wrapped.kill('SIGHUP');
    expect(await exitOf(wrapped)).toBe(STOPPED_BY.SIGHUP);
    expect(said).toBe('wq worker: stopped by SIGHUP\n');
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(alive(pid)).toBe(false);
    expect(await queue.getJobState('n16-d15')).toBe('waiting');
    expect(await registry.liveWorkers()).toEqual([]);
  });

  it('a worker whose wrapper dies by kill -9 closes by itself: no orphan', async () => {
    const { queue, process: wrapped, pid, registry } = await unitRunning('wrap-kill', wrapper);
    const sent = Date.now();
    wrapped.kill('SIGKILL');
    await exitOf(wrapped);
    await until('the orphaned worker to exit', () => !alive(pid), 5000);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await queue.getJobState('n16-d15')).toBe('waiting');
    expect(await registry.liveWorkers()).toEqual([]);
  });
});

describe('when a worker is told to stop after its Redis went away', () => {
  it('ends within its grace time plus at most 3 s instead of waiting for Redis', async () => {
    const gone = await startTestRedis();
    const logs: Record<string, unknown>[] = [];
    const worker = startWorker({
      url: gone.url,
      prefix: uniquePrefix('gone'),
      env: { WQ_SHUTDOWN_GRACE_MS: '1000' },
      onLog: (entry) => logs.push(entry),
    });
    await until('the worker to start', () => logs.some((l) => l.msg === 'worker started'));
    await gone.stop();
    await until('the worker to notice', () =>
      logs.some((l) => l.msg === 'cannot reach Redis; waiting for it'),
    );
    const sent = Date.now();
    worker.kill('SIGTERM');
    expect(await exitOf(worker)).toBe(STOPPED_BY.SIGTERM);
    expect(Date.now() - sent).toBeLessThan(1000 + 3000);
    expect(logs.at(-1)?.msg).toBe(
      'worker closed without Redis: its units run again once their locks lapse',
    );
  });
});

describe('when the dashboard is told to stop while Redis is down', () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'ends on %s within its grace time',
    async (signal) => {
      const dashboard = spawnDashboardProcess({
        args: ['--port', '0'],
        env: {
          ...process.env,
          REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
          WQ_SHUTDOWN_GRACE_MS: '1000',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      dashboard.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await until('the dashboard to listen', () => out.includes('dashboard: http'), 20_000);
      const url = /dashboard: (\S+)/.exec(out)?.[1] ?? '';
      const answer = await fetch(new URL('/api/sweeps', url));
      expect([answer.status, await answer.json()]).toEqual([
        503,
        { error: { code: 'redis_unavailable', message: 'Redis cannot be reached right now' } },
      ]);
      const sent = Date.now();
      dashboard.kill(signal);
      expect(await exitOf(dashboard)).toBe(STOPPED_BY[signal]);
      expect(Date.now() - sent).toBeLessThan(1000 + 1500);
    },
  );
});
