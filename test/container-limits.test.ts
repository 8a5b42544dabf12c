// Worker containers that know their limits: two workers of the image users run, one given
// `docker run --memory 160m --cpus 1` and one `--memory 512m --cpus 1`, with WQ_WORKER_MEMORY
// and WQ_CONCURRENCY unset. Each takes its memory from its cgroup limit and one slot from its
// CPU quota; `wq status` shows exactly that; and a sweep of n = 15 whose N(15, 10) is one window
// transfer planned at 280 MiB (above the small worker's 160 MiB, within the large one's 512 MiB)
// is exact, with every unit above the small worker's memory counted by the large one.
// (n = 15 is the largest S(n) with a reference. Planned as usual its largest unit is N(15, 8)'s
// transfer at 31 MiB, below any limit a worker starts in: an idle worker uses about 45 MiB, and
// at 48 MiB it is OOM-killed while starting. A calibration that says the DFS is slow and the
// transfer fast makes the planner count N(15, 9) and N(15, 10) by transfer too.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PipelineClient, StatusReport } from '@weak-queens/shared/client';
import { knownSums } from '@weak-queens/shared/contracts';
import {
  BUILD_MS,
  containerPipeline,
  describeWithContainers,
  removeContainers,
  runWorkerContainer,
  untilLiveWorkers,
} from './src/container-engine.js';
import { storeCalibration } from './src/transfer-at-14-8.js';
import { plannedBytes, unitRecords } from './src/unit-records.js';
import { closeWithin } from './src/wait.js';
import { runWq } from './src/wq-cli.js';

const MiB = 1024 ** 2;

describeWithContainers(
  'when worker containers have memory and CPU limits',
  'limits',
  (e, names) => {
    const { id, network, redisName, redisUrl, prefix } = names;
    /** Container name (its host name, which starts its worker id) → its memory limit. */
    const small = { name: `wq-small-${id}`, memoryBytes: 160 * MiB };
    const large = { name: `wq-large-${id}`, memoryBytes: 512 * MiB };
    let url: string;
    let client: PipelineClient;

    beforeAll(async () => {
      ({ url, client } = await containerPipeline(e, network, redisName, { WQ_PREFIX: prefix }));
      const env = { REDIS_URL: redisUrl, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' };
      for (const worker of [small, large]) {
        await runWorkerContainer(e, worker.name, network, env, [
          '--memory',
          String(worker.memoryBytes),
          '--cpus',
          '1',
        ]);
      }
      await untilLiveWorkers(client, 2);
    }, BUILD_MS);

    afterAll(async () => {
      await closeWithin(client);
      await removeContainers(e, network, [small.name, large.name, redisName]);
    }, 120_000);

    it('wq status shows each worker with one slot and its cgroup memory limit', async () => {
      const run = await runWq(['status', '--json'], { url, prefix });
      expect(run.code, run.stderr).toBe(0);
      const status = JSON.parse(run.stdout) as StatusReport;
      const workers = status.workers
        .map((w) => ({
          host: w.host,
          concurrency: w.concurrency,
          memoryBytes: w.memoryBytes,
          slotBytes: w.slotBytes,
        }))
        .sort((a, b) => (a.memoryBytes ?? 0) - (b.memoryBytes ?? 0));
      // One slot holds the whole limit: 167772160 and 536870912 bytes.
      expect(workers).toEqual(
        [small, large].map((w) => ({
          host: w.name,
          concurrency: 1,
          memoryBytes: w.memoryBytes,
          slotBytes: w.memoryBytes,
        })),
      );
    });

    it('never gives the small worker a unit larger than its limit, and the sweep is exact', async () => {
      const ns = [15];
      // The DFS 10× slower than modelled (the most a calibration applies), the transfer 5×
      // faster: N(15, 10) by transfer (1.2 s, 280 MiB) beats the DFS (3.7 s, or 1.8 s split over
      // the two workers); N(15, 11)'s transfer (582 MiB) fits neither worker.
      await storeCalibration(url, prefix, { dfs: 10, 'window-transfer': 0.2 });
      const { sweep } = await client.submit(ns);
      await client.waitFor(sweep.id);
      const results = await client.results(ns);
      expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(ns));

      const aboveSmall: string[] = [];
      let onSmall = 0;
      for (const [where, unit] of await unitRecords(client.store, ns)) {
        if (unit.worker.startsWith(`${small.name}-`)) onSmall++;
        const bytes = plannedBytes(unit);
        if (bytes <= small.memoryBytes) continue;
        aboveSmall.push(where);
        expect(unit.worker, `${where} (${bytes} B)`).toMatch(new RegExp(`^${large.name}-\\d+$`));
      }
      // N(15, 10) by window transfer, planned at 280 MiB.
      expect(aboveSmall).toEqual(['15/10/*']);
      // The small worker did take units (those both hold): it was there to be chosen.
      expect(onSmall).toBeGreaterThan(0);
    }, 600_000);
  },
);
