// What `wq sweep --wait` says when what it follows cannot go on as it is: no live worker to run
// the sweep (said once, and it waits on), or the sweep's records gone from Redis (exit 1, the
// cause named, never a bad-input error).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer } from '@weak-queens/shared/process';
import { parseSweepRecord } from '@weak-queens/shared/client';
import { KNOWN_S, storeKeys } from '@weak-queens/shared/contracts';
import { pipelineFixture, sleep, spawnWatched, until, type WatchedChild } from './src/index.js';
import { wqBinary } from './src/wq-cli.js';

const NO_WORKER = 'wq sweep: no live worker: start one with `wq worker`; the sweep waits for it';

/** `wq sweep <n> --wait --json` on `url` under `prefix`, read while it runs. */
function sweepWait(n: number, url: string, prefix: string): WatchedChild {
  return spawnWatched(process.execPath, [wqBinary(), 'sweep', String(n), '--wait', '--json'], {
    env: { ...process.env, REDIS_URL: url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' },
  });
}

/** Its stderr without the progress lines (`sweep <id> [###…] …`, as many as time makes). */
function saidLines(run: WatchedChild): string[] {
  return run.stderr.split('\n').filter((line) => line !== '' && !/^sweep s-\S+ \[/.test(line));
}

/** The id of the one sweep under `prefix`, once its submission has completed. */
async function submittedSweep(probe: Redis, prefix: string): Promise<string> {
  const keys = storeKeys(prefix);
  let id = '';
  await until('the sweep to be submitted', async () => {
    id = (await probe.zrange(keys.sweeps, 0, -1))[0] ?? '';
    const json = id === '' ? null : await probe.get(keys.sweep(id));
    return json !== null && parseSweepRecord(JSON.parse(json)).submittedAt !== undefined;
  });
  return id;
}

describe('when no worker is live while `wq sweep --wait` follows its sweep', () => {
  const redis = pipelineFixture();

  it('says so once after a few seconds, waits on, and ends exactly once a worker starts', async () => {
    const pipeline = redis.openPipeline('no-worker');
    const probe = new Redis(redis.url);
    pipeline.defer(() => probe.quit());
    const run = sweepWait(9, redis.url, pipeline.prefix);
    const id = await submittedSweep(probe, pipeline.prefix);
    const submitted = Date.now();
    await until('the no-worker line', () => run.stderr.includes(NO_WORKER), 20_000);
    expect(Date.now() - submitted).toBeGreaterThanOrEqual(5_000);
    // Seconds later it has not said it again, and it still waits.
    await sleep(10_000);
    expect(run.child.exitCode).toBeNull();
    pipeline.startWorkers(1);
    expect(await run.exited, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { S: string }).S).toBe(KNOWN_S[8]);
    expect(saidLines(run)).toEqual([`sweep ${id}: 10 jobs added (n=9 added)`, NO_WORKER]);
  }, 60_000);
});

describe('when Redis is flushed while `wq sweep --wait` follows its sweep', () => {
  // Its own server: FLUSHALL empties every database of it.
  const dir = mkdtempSync(join(tmpdir(), 'wq-flushed-'));
  let server: RedisServer;
  let probe: Redis;

  beforeAll(async () => {
    server = await RedisServer.start({ dir, appendOnly: false });
    probe = new Redis(server.url);
  });

  afterAll(async () => {
    probe?.disconnect();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("exits 1 saying the sweep's records are gone, not that its id is bad input", async () => {
    const prefix = 'flushed';
    const run = sweepWait(9, server.url, prefix);
    const id = await submittedSweep(probe, prefix);
    await probe.flushall();
    expect(await run.exited, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(saidLines(run)).toEqual([
      `sweep ${id}: 10 jobs added (n=9 added)`,
      `wq sweep: sweep ${id}: the sweep's records are gone from Redis (deleted, or the database flushed) while it ran; submit its sizes again`,
    ]);
  });
});
