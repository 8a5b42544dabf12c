// `npm run bench -- --redis-memory`: what a sweep of many tiny units costs Redis. A private
// redis-server (AOF on), a sweep of n = 10..15 split into units of about 0.1 µs of estimated
// work (about 100,000 units), enqueued with no worker running; then 2 worker processes count it.
// Reports the time to plan and enqueue, Redis memory per queued and per finished unit, the
// memory left once every result is stored, and how long `wq status` takes to read it all.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { PipelineClient } from '@weak-queens/shared/client';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig, KNOWN_S, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { benchWorkerEnv } from './local-cluster.js';

const NS = [10, 11, 12, 13, 14, 15];
const TARGET_SECONDS = 1e-7;
const WORKERS = 2;
/** The goals: enqueue time is for 100,000 units (the sweep has a few more; scaled to them). */
const GOALS = { enqueueSecondsPer100k: 10, bytesPerFinishedUnit: 1024, statusSeconds: 0.5 };

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

async function timed<T>(body: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await body();
  return { value, seconds: (performance.now() - started) / 1000 };
}

export async function runRedisMemoryBench(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'wq-bench-memory-'));
  const server = await RedisServer.start({ dir: join(dir, 'redis') });
  const env = benchWorkerEnv(server.url);
  const redis = new Redis(server.url);
  const client = new PipelineClient(compileConfig(env));
  const workers: ChildProcess[] = [];
  try {
    await client.ping();
    const empty = await usedMemory(redis);
    console.error(
      `  planning and enqueuing n = ${NS.join(', ')} at ${TARGET_SECONDS} s per unit …`,
    );
    const submit = await timed(() => client.submit(NS, { targetSeconds: TARGET_SECONDS }));
    const units = Object.values(submit.value.sweep.units).reduce((a, b) => a + b, 0);
    const jobs = submit.value.added;
    const queued = await usedMemory(redis);
    const statusQueued = await timed(() => client.status());

    console.error(`  counting ${units} units on ${WORKERS} worker processes …`);
    for (let i = 0; i < WORKERS; i++) {
      workers.push(spawnWorkerProcess({ env, stdio: ['ignore', 'inherit', 'inherit'] }));
    }
    const run = await timed(() => client.waitFor(submit.value.sweep.id, { intervalMs: 500 }));
    const statusDone = await timed(() => client.status());
    const finished = await usedMemory(redis);
    const counts = statusDone.value.jobs;
    const kept = Object.values(counts).reduce(
      (t, c) => t + (c.completed ?? 0) + (c.failed ?? 0),
      0,
    );
    const events = await Promise.all(
      [QUEUE_NAMES.count, QUEUE_NAMES.aggregate].map((q) => redis.xlen(`{wq-bench}:${q}:events`)),
    );
    const sums = await client.store.sums(NS);
    const exact = NS.every((n) => sums.get(n) === KNOWN_S[n - 1]);

    const perQueued = (queued - empty) / units;
    const enqueuePer100k = (submit.value.timing.enqueueSeconds / jobs) * 100_000;
    const perFinished = (finished - empty) / units;
    const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
    console.log(
      [
        `| measure | value | goal |`,
        `| --- | ---: | --- |`,
        `| units (jobs added) | ${units} (${jobs}) | ≥ 100,000 units |`,
        `| plan (kernel estimates, plan records) | ${submit.value.timing.planSeconds.toFixed(2)} s | |`,
        `| enqueue (flows added) | ${submit.value.timing.enqueueSeconds.toFixed(2)} s (${enqueuePer100k.toFixed(2)} s per 100,000 units) | ≤ ${GOALS.enqueueSecondsPer100k} s per 100,000 units |`,
        `| Redis memory, empty | ${mib(empty)} MiB | |`,
        `| Redis memory, all queued | ${mib(queued)} MiB (${perQueued.toFixed(0)} B per queued unit) | |`,
        `| \`wq status\` read, all queued | ${(statusQueued.seconds * 1000).toFixed(0)} ms | ≤ ${GOALS.statusSeconds * 1000} ms |`,
        `| count on ${WORKERS} workers | ${run.seconds.toFixed(1)} s (${(units / run.seconds).toFixed(0)} units/s) | |`,
        `| Redis memory, all finished | ${mib(finished)} MiB (${perFinished.toFixed(0)} B per finished unit) | ≤ ${GOALS.bytesPerFinishedUnit} B |`,
        `| finished jobs kept / events kept | ${kept} / ${events.join(' + ')} | retention: 1000 completed per queue |`,
        `| \`wq status\` read, all finished | ${(statusDone.seconds * 1000).toFixed(0)} ms | ≤ ${GOALS.statusSeconds * 1000} ms |`,
        `| S(10..15) exact | ${exact ? 'yes' : 'NO'} | |`,
      ].join('\n'),
    );
    return (
      exact &&
      enqueuePer100k <= GOALS.enqueueSecondsPer100k &&
      perFinished <= GOALS.bytesPerFinishedUnit &&
      statusQueued.seconds <= GOALS.statusSeconds &&
      statusDone.seconds <= GOALS.statusSeconds
    );
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
    await Promise.all(workers.map(exitOf));
    await client.close();
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
