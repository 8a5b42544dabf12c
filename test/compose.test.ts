// docker-compose.yml run for real, as docs/operations-compose.md tells users to: Redis (AOF on a
// named volume), the dashboard and three workers, the producer's sweep of S(1..13), a worker
// container killed in the middle and a fourth added, `down` and `up` again with the results
// kept, the dashboard from the host with and without its token, and `down -v` leaving nothing.
// The only addition to the project's file is compose-redis-port.yml, which publishes Redis on a
// loopback port so this test can read the result store as a client.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, PipelineClient } from '@weak-queens/shared/client';
import {
  compileConfig,
  knownSums,
  QUEUE_NAMES,
  type WorkerInfo,
} from '@weak-queens/shared/contracts';
import {
  ComposeProject,
  containerEngine,
  docker,
  type ReadyEngine,
  BUILD_MS,
} from './src/container-engine.js';
import { unitRecords } from './src/unit-records.js';
import { until } from './src/wait.js';

const engine = containerEngine();
const NS = Array.from({ length: 13 }, (_, i) => i + 1);
const GiB = 1024 ** 3;
const STEP_MS = 5 * 60_000;

describe.skipIf(!engine)('when docker-compose.yml runs for real', () => {
  const e = engine as ReadyEngine;
  const project = `wqcompose${randomBytes(3).toString('hex')}`;
  const token = randomBytes(16).toString('hex');
  const resultKey = randomBytes(32).toString('hex');
  let compose: ComposeProject;
  let client: PipelineClient;
  let countQueue: Queue;
  let dashboardPort: number;

  beforeAll(async () => {
    dashboardPort = await freePort();
    const redisPort = await freePort();
    compose = new ComposeProject(
      e,
      project,
      {
        DASHBOARD_TOKEN: token,
        WQ_RESULT_KEY: resultKey,
        WQ_NODE_IMAGE: e.nodeImage,
        WQ_REDIS_IMAGE: e.redisImage,
        WQ_DASHBOARD_PORT: String(dashboardPort),
        WQ_TEST_REDIS_PORT: String(redisPort),
        WQ_SWEEP: '1-13',
      },
      ['docker-compose.yml', 'test/compose-redis-port.yml'],
    );
    // One build for the three roles (they share the image tag); `up` then finds it.
    await compose.ok('build', 'worker');
    client = new PipelineClient(
      compileConfig({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, WQ_RESULT_KEY: resultKey }),
    );
    // docker-compose.yml's prefix is the default, `wq`.
    countQueue = new Queue(QUEUE_NAMES.count, {
      connection: { url: `redis://127.0.0.1:${redisPort}` },
      prefix: 'wq',
    });
  }, BUILD_MS);

  afterAll(async () => {
    await countQueue?.close();
    await client?.close();
    await compose?.run(['down', '-v', '--remove-orphans', '-t', '5']);
  }, STEP_MS);

  /** The live workers' heartbeats, once `count` of them heartbeat. */
  async function liveWorkers(count: number): Promise<WorkerInfo[]> {
    let live: WorkerInfo[] = [];
    await until(
      `${count} live workers`,
      async () => (live = await client.registry.liveWorkers()).length === count,
      STEP_MS,
      250,
    );
    return live;
  }

  /** Waits for the producer's container to exit; its exit code and output. */
  async function producerRun(): Promise<{ code: number; logs: string }> {
    const [id] = await compose.containers('producer');
    if (!id) throw new Error('no producer container');
    const code = Number(await docker(e, 'wait', id));
    return { code, logs: await docker(e, 'logs', id) };
  }

  it('refuses to start without DASHBOARD_TOKEN or WQ_RESULT_KEY, saying which', async () => {
    // Empty is unset for `${VAR:?}`, whatever this process's environment holds.
    const without = (name: string) => ({ ...compose.env, [name]: '' });
    const withoutToken = await compose.run(['config', '-q'], without('DASHBOARD_TOKEN'));
    expect(withoutToken.code).not.toBe(0);
    expect(withoutToken.stderr).toContain(
      'set DASHBOARD_TOKEN to a secret of at least 16 characters',
    );
    const withoutKey = await compose.run(['config', '-q'], without('WQ_RESULT_KEY'));
    expect(withoutKey.code).not.toBe(0);
    expect(withoutKey.stderr).toContain('set WQ_RESULT_KEY to a secret');
  });

  it(
    'starts Redis, the dashboard and three workers of 2 GiB and one slot each',
    async () => {
      await compose.ok('up', '-d', '--scale', 'worker=3', 'redis', 'worker', 'dashboard');
      const workers = await liveWorkers(3);
      // The memory and CPU limits of docker-compose.yml, read by each worker from its cgroup.
      for (const w of workers) {
        expect({ memory: w.memoryBytes, slots: w.concurrency }, w.id).toEqual({
          memory: 2 * GiB,
          slots: 1,
        });
      }
      expect(new Set(workers.map((w) => w.host)).size).toBe(3);
    },
    STEP_MS,
  );

  it(
    'runs the sweep of S(1..13) exactly through a worker killed and a fourth added',
    async () => {
      await compose.ok('up', '-d', '--no-recreate', 'producer');
      // A worker in the middle of a unit of the sweep, as the queue says now (a heartbeat's
      // list of active units may be seconds old): its container is killed (SIGKILL).
      let victim: WorkerInfo | undefined;
      await until(
        'a worker with an active unit',
        async () => {
          // A unit of n = 13, the sweep's longest, so it is still running when the kill lands.
          const active = (await countQueue.getActive()).filter(
            (j) => (j.data as { n?: number }).n === 13,
          );
          const holders = new Set(active.map((j) => j.processedBy?.replace(/-\d+$/, '')));
          victim = (await client.registry.liveWorkers()).find((w) => holders.has(w.host));
          return victim !== undefined;
        },
        STEP_MS,
        10,
      );
      await docker(e, 'kill', victim?.host ?? '');
      await compose.ok('up', '-d', '--no-recreate', '--scale', 'worker=4', 'worker');
      // Added while the sweep runs: it cannot end before the killed unit's lock lapses (~30 s).
      const [producer] = await compose.containers('producer');
      expect(await docker(e, 'inspect', '-f', '{{.State.Running}}', producer ?? '')).toBe('true');

      const run = await producerRun();
      expect(run.code, run.logs).toBe(0);
      const results = await client.results(NS);
      expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(NS));
      // Each unit counted once: stored once, never counted again with the same value, and begun
      // at most once more than stored (the killed worker's unit, put back by stall detection).
      const records = await unitRecords(client.store, NS);
      const counters = await client.store.counters();
      expect(counters.duplicates).toBe(0);
      expect(counters.starts).toBeGreaterThanOrEqual(records.size);
      // One slot per worker: the victim held one unit.
      expect(counters.starts).toBeLessThanOrEqual(records.size + 1);
      // Four worker containers now; the killed one's heartbeat has lapsed or it was started
      // again by the scale-up, so at least the three others heartbeat.
      expect(await compose.containers('worker')).toHaveLength(4);
      await until(
        'the added workers to heartbeat',
        async () => (await client.registry.liveWorkers()).length >= 3,
        STEP_MS,
        250,
      );
    },
    STEP_MS,
  );

  it(
    'keeps the results through down and up: a resubmitted sweep computes nothing',
    async () => {
      const before = await unitRecords(client.store, NS);
      const counters = await client.store.counters();
      await compose.ok('down', '-t', '20');
      expect(await compose.containers()).toEqual([]);
      await compose.ok('up', '-d', '--scale', 'worker=2', 'redis', 'worker', 'dashboard');
      await liveWorkers(2);
      await compose.ok('up', '-d', 'producer');
      const run = await producerRun();
      expect(run.code, run.logs).toBe(0);
      const results = await client.results(NS);
      expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(NS));
      expect(await unitRecords(client.store, NS)).toEqual(before);
      expect(await client.store.counters()).toEqual(counters);
    },
    STEP_MS,
  );

  it('serves the dashboard on its published port with the token, and refuses without', async () => {
    const base = `http://127.0.0.1:${dashboardPort}`;
    await until('the dashboard to answer', async () => {
      try {
        return (await fetch(`${base}/healthz`)).ok;
      } catch {
        return false;
      }
    });
    const refused = await fetch(`${base}/api/workers`);
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${base}/api/workers`, {
      headers: { authorization: `Bearer ${'x'.repeat(32)}` },
    });
    expect(wrong.status).toBe(401);
    const answered = await fetch(`${base}/api/workers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answered.status).toBe(200);
    // What the dashboard shows of each worker: the memory and slots from its container.
    const body = JSON.stringify(await answered.json());
    expect(body).toContain(String(2 * GiB));
  });

  it(
    'leaves no container, network or volume behind after down -v',
    async () => {
      await compose.ok('down', '-v', '-t', '20');
      expect(await compose.leftovers()).toEqual([]);
    },
    STEP_MS,
  );
});
