// The multi-host test with containers for hosts: Redis and two workers in their own containers
// on one container network (the image users run, on the Redis image of the test run), one
// worker's network cut (`docker network disconnect`) in the middle of its unit and restored
// later. The sweep is exact and each unit is counted once: the cut unit by the other worker.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PipelineClient } from '@weak-queens/shared/client';
import { QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { baselineN } from './src/baseline-counts.js';
import {
  BUILD_MS,
  containerPipeline,
  describeWithContainers,
  docker,
  removeContainers,
  runWorkerContainer,
  untilLiveWorkers,
} from './src/container-engine.js';
import { exactSweepHosts, expectExactSweep } from './src/exact-sweep.js';
import { stallsWhenFinished } from './src/stalls-when-finished.js';
import { keepTransferAt14x8 } from './src/transfer-at-14-8.js';
import { unitRecords } from './src/unit-records.js';
import { closeWithin, until } from './src/wait.js';
import { FAST_STALLS } from './src/worker-processes.js';

describeWithContainers(
  'when workers run in containers on one container network',
  'hosts',
  (e, names) => {
    const { id, network, redisName, redisUrl, prefix } = names;
    const hosts = ['a', 'b'].map((h) => `wq-${h}-${id}`);
    const resultKey = randomBytes(32).toString('hex');
    let url: string;
    let client: PipelineClient;
    let count: Queue;

    beforeAll(async () => {
      ({ url, client } = await containerPipeline(e, network, redisName, {
        WQ_PREFIX: prefix,
        WQ_RESULT_KEY: resultKey,
      }));
      count = new Queue(QUEUE_NAMES.count, { connection: { url }, prefix });
      const env = {
        REDIS_URL: redisUrl,
        WQ_PREFIX: prefix,
        WQ_RESULT_KEY: resultKey,
        WQ_CONCURRENCY: '1',
        LOG_LEVEL: 'warn',
        ...FAST_STALLS,
      };
      for (const host of hosts) await runWorkerContainer(e, host, network, env);
      await untilLiveWorkers(client, 2);
    }, BUILD_MS);

    afterAll(async () => {
      await count?.close();
      await closeWithin(client);
      await removeContainers(e, network, [...hosts, redisName]);
    }, 120_000);

    it('completes a sweep exactly with units computed in both containers', async () => {
      const where = await exactSweepHosts(client, (worker) => worker.replace(/-\d+$/, ''));
      expect(where).toEqual([...hosts].sort());
    });

    it('survives cutting the network of the worker in the middle of a unit, then restoring it', async () => {
      await keepTransferAt14x8(url, prefix);
      const ns = [13, 14];
      const before = await client.store.counters();
      const { sweep } = await client.submit(ns);
      let holder: string | undefined;
      await until('N(14, 8) to start in a container', async () => {
        const job = await count.getJob('n14-d8');
        if ((await job?.getState()) !== 'active') return false;
        holder = hosts.find((h) => job?.processedBy?.startsWith(`${h}-`));
        return holder !== undefined;
      });
      await docker(e, 'network', 'disconnect', network, holder ?? '');
      expect((await client.store.units(14, 8)).size).toBe(0);
      const stalled = await stallsWhenFinished(
        count,
        'n14-d8',
        'N(14, 8) to finish in the other container',
      );
      // The link comes back: the cut worker reconnects and serves again.
      await docker(e, 'network', 'connect', network, holder ?? '');

      await expectExactSweep(client, sweep.id, ns);
      const unit = (await client.store.units(14, 8)).get('*');
      expect(unit?.value).toBe(baselineN(14, 8));
      const survivor = hosts.find((h) => h !== holder);
      expect(unit?.worker).toMatch(new RegExp(`^${survivor}-\\d+$`));
      expect(stalled).toBe(1);
      await until(
        'the cut worker to heartbeat again',
        async () => {
          const live = await client.registry.liveWorkers();
          return live.some((w) => w.host === holder);
        },
        120_000,
        250,
      );
      // Counted once: every unit of 13 and 14 stored once, begun once and the cut unit once more.
      // The cut worker went on counting while cut off; its late count of that unit, sent once
      // its link is back, is recognised as a duplicate (same value) and not stored again.
      const records = await unitRecords(client.store, ns);
      const after = await client.store.counters();
      expect(after.starts - before.starts).toBe(records.size + 1);
      expect(after.duplicates - before.duplicates).toBeLessThanOrEqual(1);
    });
  },
);
