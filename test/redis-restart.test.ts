// Redis restarted (AOF on, same port and directory) in the middle of a sweep: the worker
// processes and a `wq sweep --wait` follower reconnect by themselves and the sweep is exact.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, KNOWN_S } from '@weak-queens/shared/contracts';
import {
  FAST_STALLS,
  restartableRedis,
  startWorker,
  stopWorkers,
  uniquePrefix,
  unitRecords,
  until,
} from './src/index.js';
import { runWq } from './src/wq-cli.js';

describe('when Redis restarts in the middle of a sweep', () => {
  const redis = restartableRedis('restart');
  const prefix = uniquePrefix('restart');
  let workers: ChildProcess[] = [];

  afterAll(async () => {
    await stopWorkers(workers);
  });

  it('reconnects workers and the follower, and completes every S(n) exactly', async () => {
    const url = redis.url;
    const ns = Array.from({ length: 14 }, (_, i) => i + 1);
    workers = [0, 1].map(() => startWorker({ url, prefix, env: { ...FAST_STALLS } }));
    // The user's view: `wq sweep 1-14 --wait --json` in its own process, started before the cut.
    const follower = runWq(['sweep', '1-14', '--wait', '--json'], { url, prefix });

    const watcher = new PipelineClient(compileConfig({ REDIS_URL: url, WQ_PREFIX: prefix }));
    let stored: Awaited<ReturnType<typeof unitRecords>>;
    try {
      await until('part of n = 14 to be stored', async () => {
        let n14 = 0;
        for (let d = 0; d < 14; d++) n14 += await watcher.store.unitCount(14, d);
        return n14 >= 3;
      });
      stored = await unitRecords(watcher.store, ns);
    } finally {
      await watcher.close();
    }

    await redis.restart();

    const run = await follower;
    expect(run.code, run.stderr).toBe(0);
    // It noticed the outage and waited it out rather than failing.
    expect(run.stderr).toMatch(/Redis unavailable, retrying…/);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; S: string });
    expect(lines.map((l) => [l.n, l.S])).toEqual(ns.map((n) => [n, KNOWN_S[n - 1]]));
    expect(workers.every((w) => w.exitCode === null && w.signalCode === null)).toBe(true);

    // The AOF kept everything stored before the restart: none of it was computed again.
    const after = new PipelineClient(compileConfig({ REDIS_URL: redis.url, WQ_PREFIX: prefix }));
    try {
      const records = await unitRecords(after.store, ns);
      expect(stored.size).toBeGreaterThan(0);
      for (const [key, record] of stored) expect(records.get(key), key).toEqual(record);
    } finally {
      await after.close();
    }
  });
});
