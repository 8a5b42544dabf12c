// The sweep registry on a real Redis: heartbeats scored by the server's clock, liveness cut on
// it, each worker's skew kept, and what an unfinished submission has not queued.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeSizes,
  duration,
  notQueuedLine,
  SweepRegistry,
  type SweepRecord,
  type WorkerInfo,
  WORKER_TTL_MS,
} from '@weak-queens/shared/client';
import { PROTOCOL_VERSION, storeKeys } from '@weak-queens/shared/contracts';
import { deletePrefix, startTestRedis, type TestRedis, uniquePrefix } from './src/index.js';

let redis: TestRedis;
let client: Redis;
const prefixes: string[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
  client = new Redis(redis.url);
});

afterAll(async () => {
  for (const prefix of prefixes) await deletePrefix(redis.url, prefix);
  client?.disconnect();
  await redis?.stop();
});

function registry(label: string): { registry: SweepRegistry; prefix: string } {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  return { registry: new SweepRegistry(client, prefix), prefix };
}

const WORKER: WorkerInfo = {
  id: 'host-a-1',
  host: 'host-a',
  pid: 1,
  concurrency: 2,
  startedAt: '2026-12-02T10:00:00.000Z',
  active: [],
  clockSkewMs: 7_200_000,
  protocol: PROTOCOL_VERSION,
};

const SWEEP: SweepRecord = {
  id: 's-abc',
  ns: [1, 2, 3, 4],
  createdAt: '2026-12-02T10:00:00.000Z',
  targetSeconds: 30,
  units: { '1': 1, '2': 2, '3': 3, '4': 4 },
  queued: [1, 2],
};

async function serverMs(): Promise<number> {
  const [seconds, micros] = await client.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('when a worker heartbeats', () => {
  it("is scored by the server's clock, and its skew is kept after it is gone", async () => {
    const { registry: r, prefix } = registry('beat');
    const before = await serverMs();
    const at = await r.heartbeat(WORKER);
    const after = await serverMs();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    expect(Number(await client.zscore(storeKeys(prefix).workers, WORKER.id))).toBe(at);
    expect(await r.liveWorkers()).toEqual([WORKER]);
    await r.removeWorker(WORKER.id);
    expect(await r.liveWorkers()).toEqual([]);
    expect(await r.clockSkews()).toEqual(new Map([[WORKER.id, 7_200_000]]));
  });

  it('is pruned once its score is a TTL behind the server, whatever the worker claims', async () => {
    const { registry: r, prefix } = registry('stale');
    const keys = storeKeys(prefix);
    await r.heartbeat(WORKER);
    await r.heartbeat({ ...WORKER, id: 'host-b-2', host: 'host-b', pid: 2 });
    // As if host-a's last heartbeat were a TTL and a second old.
    await client.zadd(keys.workers, (await serverMs()) - WORKER_TTL_MS - 1000, WORKER.id);
    expect((await r.liveWorkers()).map((w) => w.id)).toEqual(['host-b-2']);
    expect(await client.hexists(keys.workerInfo, WORKER.id)).toBe(0);
  });

  it("lists a worker of another protocol apart: live, but not one that takes this build's jobs", async () => {
    const { registry: r, prefix } = registry('protocols');
    // A heartbeat of a build before protocols were numbered carries none: protocol 1.
    const old: WorkerInfo = { ...WORKER, id: 'host-c-3', host: 'host-c', pid: 3 };
    delete (old as { protocol?: number }).protocol;
    await r.heartbeat(WORKER);
    await r.heartbeat(old);
    expect(await r.liveWorkers()).toEqual([WORKER]);
    expect(await r.otherProtocolWorkers()).toEqual([old]);
    // Read as that build reads it, the other way round.
    const asOld = new SweepRegistry(client, prefix, { protocol: 1 });
    expect((await asOld.liveWorkers()).map((w) => w.id)).toEqual([old.id]);
    expect((await asOld.otherProtocolWorkers()).map((w) => w.id)).toEqual([WORKER.id]);
  });

  it("measures this host's clock against the server's", async () => {
    const { registry: r } = registry('clock');
    const { redisMs, skewMs } = await r.clock();
    expect(Math.abs(redisMs - Date.now())).toBeLessThan(60_000);
    // The test's Redis runs on this machine: one clock.
    expect(Math.abs(skewMs)).toBeLessThan(1000);
  });
});

describe('when a submission has not queued every n', () => {
  const sizes = [
    { n: 1, state: 'queued' },
    { n: 2, state: 'running' },
    { n: 3, state: 'cancelled' },
    { n: 4, state: 'cancelled' },
  ];

  it('names the n never queued: still queuing while its submitter is marked, else interrupted', async () => {
    const { registry: r } = registry('not-queued');
    await r.markSubmitting(SWEEP.id, 60_000);
    expect(await r.notQueued(SWEEP, sizes)).toEqual({ ns: [3, 4], interrupted: false });
    await r.doneSubmitting(SWEEP.id);
    expect(await r.notQueued(SWEEP, sizes)).toEqual({ ns: [3, 4], interrupted: true });
    expect(notQueuedLine(SWEEP.id, { ns: [3, 4], interrupted: true })).toBe(
      'interrupted while queuing: n = 3..4 not queued; wq retry s-abc finishes it',
    );
    expect(notQueuedLine(SWEEP.id, { ns: [3, 4], interrupted: false })).toBe(
      'queuing: n = 3..4 not queued yet',
    );
  });

  it('says nothing of a finished, cancelled or older record', async () => {
    const { registry: r } = registry('complete');
    expect(await r.notQueued({ ...SWEEP, submittedAt: SWEEP.createdAt }, sizes)).toBe(undefined);
    expect(await r.notQueued({ ...SWEEP, cancelledAt: SWEEP.createdAt }, sizes)).toBe(undefined);
    const older: SweepRecord = {
      id: SWEEP.id,
      ns: SWEEP.ns,
      createdAt: SWEEP.createdAt,
      targetSeconds: 30,
      units: SWEEP.units,
    };
    expect(await r.notQueued(older, sizes)).toBe(undefined);
  });
});

describe('when sizes and durations are written for a person', () => {
  it.each([
    [[10, 11, 12, 13], 'n = 10..13'],
    [[7, 3, 5, 6], 'n = 3, 5..7'],
    [[32], 'n = 32'],
  ])('%j reads %s', (ns, text) => {
    expect(describeSizes(ns)).toBe(text);
  });

  it.each([
    [1.036e30, '3.3e+22 years'],
    [31_557_600, '1 year'],
    [86_400 * 41, '41 days'],
    [5 * 3600, '5 hours'],
    [600, '10 min'],
    [12, '12 s'],
  ])('%d s reads %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });
});
