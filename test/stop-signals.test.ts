// SIGQUIT and SIGUSR2, whose defaults would end a process without a word (or with a core dump),
// are stop signals like SIGTERM everywhere: a worker hands its unit back at once and says so in
// one line, the dashboard closes cleanly, and the `wq` CLI ends as SIGTERM ends it.
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
    expect(await exitOf(worker)).toBe(0);
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
  it('closes cleanly (exit 0) with one line naming the signal', async () => {
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
    expect(await exitOf(dashboard)).toBe(0);
    const named = stderr
      .split('\n')
      .filter((line) => line.includes(`"reason":"${signal}"`))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(named).toEqual(['dashboard closing']);
  });
});

describe.each(['SIGQUIT', 'SIGUSR2'] as const)('when `wq sweep --wait` gets %s', (signal) => {
  it('ends as SIGTERM ends it, its sweep recorded', async () => {
    const pipeline = redis.openPipeline(`cli-${signal}`);
    const keys = storeKeys(pipeline.prefix);
    const probe = new Redis(redis.url);
    pipeline.defer(() => probe.quit());
    // No worker: the sweep waits for ever once submitted.
    const sweep: ChildProcess = spawn(process.execPath, [wqBinary(), 'sweep', '9', '--wait'], {
      env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: pipeline.prefix, LOG_LEVEL: 'warn' },
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
    expect([sweep.exitCode, sweep.signalCode]).toEqual([null, 'SIGTERM']);
    expect(stderr).not.toContain('core dumped');
  });
});
