// SIGQUIT and SIGUSR2, whose defaults would end a process without a word (or with a core dump),
// are stop signals like SIGTERM everywhere: a worker hands its unit back at once and says so in
// one line, the dashboard closes cleanly, and `wq sweep --wait` says it stopped; each exits with
// 128 + the signal's number, as a shell reports a process that signal ended.
import { type ChildProcess, spawn } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { dashboardUrl, exitOf, spawnDashboardProcess } from '@weak-queens/producer';
import { QUEUE_NAMES, storeKeys } from '@weak-queens/shared/contracts';
import { parseSweepRecord } from '@weak-queens/shared/client';
import { addLongUnit, pipelineFixture, startWorker, until } from './src/index.js';
import { wqBinary } from './src/wq-cli.js';

const redis = pipelineFixture();

/** 128 + the signal's number on Linux. */
const STOPPED_BY = { SIGHUP: 129, SIGINT: 130, SIGQUIT: 131, SIGUSR2: 140, SIGTERM: 143 } as const;

describe.each(['SIGQUIT', 'SIGUSR2'] as const)('when a worker gets %s mid-unit', (signal) => {
  it('hands the unit back at once (no stall), with one log line naming the signal', async () => {
    const pipeline = redis.openPipeline(`worker-${signal}`);
    const { prefix } = pipeline;
    const queue = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    pipeline.defer(() => queue.close());
    const job = await addLongUnit(queue, redis.url, prefix, 's-quit');
    const logs: Record<string, unknown>[] = [];
    const worker = startWorker({
      url: redis.url,
      prefix,
      env: { WQ_SHUTDOWN_GRACE_MS: '200' },
      onLog: (entry) => logs.push(entry),
    });
    pipeline.workers.push(worker);
    await until('the unit to start', async () => (await job.getState()) === 'active');
    await new Promise((r) => setTimeout(r, 300));
    worker.kill(signal);
    expect(await exitOf(worker)).toBe(STOPPED_BY[signal]);
    // Back in `waiting` when the worker has exited: handed back, not left to stall detection
    // (which would find it only after its lock lapsed).
    expect(await queue.getJobState('n16-d15')).toBe('waiting');
    const named = logs.filter((entry) => entry.reason === signal);
    expect(named.map((entry) => entry.msg)).toEqual(['stopping']);
    expect(logs.some((entry) => entry.msg === 'worker closed')).toBe(true);
    const checker = new Redis(redis.url);
    pipeline.defer(() => checker.quit());
    expect(await checker.zcard(storeKeys(prefix).workers)).toBe(0);
  });
});

describe.each(['SIGQUIT', 'SIGUSR2'] as const)('when the dashboard gets %s', (signal) => {
  it('closes cleanly (exit 128 + its number) with one line naming the signal', async () => {
    const pipeline = redis.openPipeline(`dashboard-${signal}`);
    const dashboard = spawnDashboardProcess({
      args: ['--port', '0'],
      env: {
        ...process.env,
        REDIS_URL: redis.url,
        WQ_PREFIX: pipeline.prefix,
        WQ_SHUTDOWN_GRACE_MS: '1000',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    dashboard.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await dashboardUrl(dashboard, 30_000);
    expect((await fetch(new URL('/api/sweeps', url))).status).toBe(200);
    dashboard.kill(signal);
    expect(await exitOf(dashboard)).toBe(STOPPED_BY[signal]);
    const named = stderr
      .split('\n')
      .filter((line) => line.includes(`"reason":"${signal}"`))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(named).toEqual(['dashboard closing']);
  });
});

describe.each(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'] as const)(
  'when `wq sweep --wait` gets %s',
  (signal) => {
    it('ends in one line naming the signal, exit 128 + its number, its sweep recorded', async () => {
      const pipeline = redis.openPipeline(`cli-${signal}`);
      const keys = storeKeys(pipeline.prefix);
      const probe = new Redis(redis.url);
      pipeline.defer(() => probe.quit());
      // No worker: the sweep waits for ever once submitted.
      const sweep: ChildProcess = spawn(process.execPath, [wqBinary(), 'sweep', '9', '--wait'], {
        env: {
          ...process.env,
          REDIS_URL: redis.url,
          WQ_PREFIX: pipeline.prefix,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      sweep.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await until('the sweep to be submitted', async () => {
        const [id] = await probe.zrange(keys.sweeps, 0, -1);
        const json = id === undefined ? null : await probe.get(keys.sweep(id));
        return json !== null && parseSweepRecord(JSON.parse(json)).submittedAt !== undefined;
      });
      sweep.kill(signal);
      await exitOf(sweep);
      expect([sweep.exitCode, sweep.signalCode]).toEqual([STOPPED_BY[signal], null]);
      expect(
        stderr.split('\n').filter((line) => line !== '' && !line.startsWith('sweep ')),
      ).toEqual([`wq sweep: stopped by ${signal}`]);
    });
  },
);

describe('when `wq dashboard` gets SIGTERM', () => {
  it('closes its dashboard, says so in one line and exits with 143', async () => {
    const pipeline = redis.openPipeline('wq-dashboard');
    const dashboard = spawn(process.execPath, [wqBinary(), 'dashboard', '--port', '0'], {
      env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: pipeline.prefix, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    dashboard.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await dashboardUrl(dashboard, 30_000);
    expect((await fetch(new URL('/api/sweeps', url))).status).toBe(200);
    dashboard.kill('SIGTERM');
    expect(await exitOf(dashboard)).toBe(STOPPED_BY.SIGTERM);
    expect(stderr).toBe('wq dashboard: stopped by SIGTERM\n');
  });
});

describe('when `wq status --watch` gets SIGINT', () => {
  it('says so in one line and exits with 130', async () => {
    const pipeline = redis.openPipeline('watch');
    const watch = spawn(process.execPath, [wqBinary(), 'status', '--watch'], {
      env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: pipeline.prefix, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    watch.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    watch.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until('the first report', () => stdout.includes('workers: 0 live'));
    watch.kill('SIGINT');
    expect(await exitOf(watch)).toBe(STOPPED_BY.SIGINT);
    expect(stderr).toBe('wq status: stopped by SIGINT\n');
  });
});
