// The one progress reader: the same constant number of Redis commands for a sweep of 3 (n, D)
// as for one of 75, seen by the server itself (MONITOR on a private Redis).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig } from '@weak-queens/shared/contracts';
import { deletePrefix, startTestRedis, type TestRedis, uniquePrefix } from './src/index.js';

let redis: TestRedis;
let stats: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  stats = new Redis(redis.url);
});
afterAll(async () => {
  stats?.disconnect();
  await redis?.stop();
});

/** The commands `read` sends, by name (those a script runs inside Redis left out). */
async function commandsOf(read: () => Promise<unknown>): Promise<Record<string, number>> {
  const monitor = await stats.monitor();
  const sent: Record<string, number> = {};
  let fenceSeen: () => void = () => undefined;
  const fence = new Promise<void>((resolve) => {
    fenceSeen = resolve;
  });
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const name = args[0]?.toLowerCase();
    if (name === 'echo' && args[1] === 'fence') fenceSeen();
    else if (name && source !== 'lua') sent[name] = (sent[name] ?? 0) + 1;
  });
  try {
    await read();
    // MONITOR lines come in the order the server ran the commands: the fence comes last.
    await stats.echo('fence');
    await fence;
  } finally {
    monitor.disconnect();
  }
  return sent;
}

describe('when the progress of sweeps of 3 and of 75 (n, D) is read', () => {
  const prefix = uniquePrefix('progress');
  let client: PipelineClient;
  let small: string;
  let large: string;

  beforeAll(async () => {
    client = new PipelineClient(compileConfig({ REDIS_URL: redis.url, WQ_PREFIX: prefix }));
    // No worker: every job stays queued while it is read.
    small = (await client.submit([1, 2])).sweep.id;
    large = (await client.submit([10, 11, 12, 13, 14, 15])).sweep.id;
    // One stored unit of N(12, 3) makes n = 12 running.
    await client.store.putUnit({
      kind: 'unit',
      n: 12,
      depth: 3,
      unit: '0',
      value: '7',
      algorithm: 'dfs',
      seconds: 0.5,
      worker: 'w1',
    });
    await client.progress(small, { depths: true }); // connections and scripts warmed up
  });
  afterAll(async () => {
    await client?.close();
    await deletePrefix(redis.url, prefix);
  });

  it('sends the same five commands for either: the sweep, a store script, a queue script, its done times, the memory classes in use', async () => {
    // smembers: which memory-class count queues exist (units that fit no live worker).
    const expected = { get: 1, eval: 2, hvals: 1, smembers: 1 };
    expect(await commandsOf(() => client.progress(small))).toEqual(expected);
    expect(await commandsOf(() => client.progress(large))).toEqual(expected);
  });

  it('adds one script over the unfinished (n, D) jobs for the per-D view of the dashboard', async () => {
    const expected = { get: 1, eval: 3, hvals: 1, smembers: 1 };
    expect(await commandsOf(() => client.progress(small, { depths: true }))).toEqual(expected);
    expect(await commandsOf(() => client.progress(large, { depths: true }))).toEqual(expected);
  });

  it('reads every n queued but the one with a stored unit, which is running', async () => {
    const progress = await client.progress(large, { depths: true });
    expect(progress.status).toBe('running');
    expect(progress.sizes.map((s) => [s.n, s.state, s.unitsDone])).toEqual([
      [10, 'queued', 0],
      [11, 'queued', 0],
      [12, 'running', 1],
      [13, 'queued', 0],
      [14, 'queued', 0],
      [15, 'queued', 0],
    ]);
    const n12 = progress.sizes[2]?.depths ?? [];
    expect(n12.map((d) => d.status)).toEqual(
      Array.from({ length: 12 }, (_, d) => (d === 3 ? 'running' : 'queued')),
    );
    expect([n12[3]?.unitsDone, n12[3]?.seconds]).toEqual([1, 0.5]);
  });

  it('reads a cancelled sweep as cancelled, every n and every D of it', async () => {
    await client.cancel(small);
    const progress = await client.progress(small, { depths: true });
    expect(progress.status).toBe('cancelled');
    expect(progress.sizes.map((s) => s.state)).toEqual(['cancelled', 'cancelled']);
    expect(progress.sizes.flatMap((s) => s.depths?.map((d) => d.status))).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
  });
});
