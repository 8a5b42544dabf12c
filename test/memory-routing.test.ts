// Workers of different sizes in one sweep: units go only where they fit (the count queue of
// their memory class), a unit no live worker can hold is reported, and `wq replan` or a large
// enough worker lets the sweep finish exactly. Small WQ_WORKER_MEMORY values force the classes
// at small n: the window-transfer units of N(12, 5), N(13, 5) and N(13, 6) need about 114 KiB,
// 185 KiB and 879 KiB (from D = 6 at n = 12, and D = 5 at n = 11, the DFS is cheaper).
import { describe, expect, it } from 'vitest';
import { type StatusReport, type UnfitUnit } from '@weak-queens/shared/client';
import { knownSums } from '@weak-queens/shared/contracts';
import { estimateCost } from '@weak-queens/shared/kernel';
import {
  killHard,
  pidOfWorkerName,
  pipelineFixture,
  plannedBytes,
  unitRecords,
  until,
} from './src/index.js';
import { runWq } from './src/wq-cli.js';

/** Per slot: the small worker holds 64 KiB, the large one 1 MiB (one slot each). */
const SMALL = { WQ_WORKER_MEMORY: '64KiB' };
const LARGE = { WQ_WORKER_MEMORY: '1MiB' };
const SMALL_SLOT = 64 * 1024;

const redis = pipelineFixture();

describe('when a small and a large worker share a sweep', () => {
  it('runs the large units only on the large worker, and the sweep is exact', async () => {
    const pipeline = redis.openPipeline('routing');
    const { client, prefix } = pipeline;
    const small = pipeline.startWorker({ env: SMALL });
    const large = pipeline.startWorker({ env: LARGE });
    await until('both workers to heartbeat', async () => {
      return (await client.registry.liveWorkers()).length === 2;
    });
    const ns = [11, 12, 13];
    const { sweep } = await client.submit(ns);
    await client.waitFor(sweep.id);

    const results = await client.results(ns);
    expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(knownSums(ns));
    const ran = new Map<number, number[]>();
    for (const [where, unit] of await unitRecords(client.store, ns)) {
      const bytes = plannedBytes(unit);
      const pid = pidOfWorkerName(unit.worker) ?? -1;
      expect(pid === large.pid || bytes <= SMALL_SLOT, `${where} (${bytes} B) ran on ${pid}`).toBe(
        true,
      );
      ran.set(pid, [...(ran.get(pid) ?? []), bytes]);
    }
    // The large units: N(12, 5), N(13, 5) and N(13, 6), by window transfer, on the large one.
    const large_ = (ran.get(large.pid ?? -1) ?? []).filter((b) => b > SMALL_SLOT).length;
    expect(large_).toBe(3);
    // The small worker did take units (those every worker holds).
    expect((ran.get(small.pid ?? -1) ?? []).length).toBeGreaterThan(0);
    const status = JSON.parse(
      (await runWq(['status', '--json'], { url: redis.url, prefix })).stdout,
    ) as StatusReport;
    expect(Object.keys(status.jobs).sort()).toEqual([
      'aggregate.v2',
      'count.v2',
      'count.v2@128KiB',
      'count.v2@1MiB',
      'count.v2@256KiB',
    ]);
  });
});

describe('when a unit fits no live worker', () => {
  it('says so, and wq replan or a large worker lets the sweep finish exactly', async () => {
    const pipeline = redis.openPipeline('unfit');
    const { client, prefix } = pipeline;
    const env = { url: redis.url, prefix };
    const small = pipeline.startWorker({ env: SMALL });
    // A large worker that dies (kill -9) just before the sweeps: its heartbeat is still live
    // when they are planned, so their large units go to a class only it consumed.
    const gone = pipeline.startWorker({ env: LARGE });
    await until('both workers to heartbeat', async () => {
      return (await client.registry.liveWorkers()).length === 2;
    });
    await killHard(gone);
    const first = await client.submit([13]);
    // The second sweep is followed by `wq sweep --wait`, as a user would.
    const followed = runWq(['sweep', '12', '--wait'], env);
    let secondId = '';
    await until('the second sweep to be submitted', async () => {
      const ids = (await client.registry.list()).map((s) => s.id);
      secondId = ids.find((id) => id !== first.sweep.id) ?? '';
      return secondId !== '';
    });

    let unfit: readonly UnfitUnit[] = [];
    await until(
      'the dead worker to drop out and its units to be reported',
      async () => {
        const progress = await client.progress(first.sweep.id);
        unfit = progress.sizes.flatMap((s) => s.unfit ?? []);
        return unfit.length === 2;
      },
      30_000,
      250,
    );
    expect(
      unfit.map(({ n, depth, queue, largestSlotBytes }) => ({ n, depth, queue, largestSlotBytes })),
    ).toEqual([
      { n: 13, depth: 5, queue: 'count.v2@256KiB', largestSlotBytes: SMALL_SLOT },
      { n: 13, depth: 6, queue: 'count.v2@1MiB', largestSlotBytes: SMALL_SLOT },
    ]);
    expect(unfit.map((u) => u.bytes)).toEqual([
      Math.ceil(estimateCost('window-transfer', 13, 5, []).bytes),
      Math.ceil(estimateCost('window-transfer', 13, 6, []).bytes),
    ]);
    const status = await runWq(['status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      '2 unit(s) fit no live worker (the largest live worker has 64 KiB per slot):',
    );
    expect(status.stdout).toContain('unit n13-d5 of N(13, 5) needs 132 KiB per slot');
    expect(status.stdout).toContain('unit n13-d6 of N(13, 6) needs 567 KiB per slot');
    expect(status.stdout).toContain(`wq replan ${first.sweep.id}`);

    const replan = await runWq(['replan', first.sweep.id], env);
    expect(replan.code).toBe(0);
    expect(replan.stdout).toMatch(
      new RegExp(
        `^sweep ${first.sweep.id}: planned again for the live workers, \\d+ jobs added \\(n=13 added\\)\\n$`,
      ),
    );
    await client.waitFor(first.sweep.id);
    expect((await client.results([13]))[0]?.S).toBe(knownSums([13]).get(13));
    // Only the small worker was live: it counted every unit of the replanned sweep.
    const pids = [...(await unitRecords(client.store, [13])).values()].map((u) =>
      pidOfWorkerName(u.worker),
    );
    expect(new Set(pids)).toEqual(new Set([small.pid]));

    // The second sweep still waits for a large worker; starting one finishes it.
    expect(await client.unfitUnits([12])).toHaveLength(1);
    pipeline.startWorker({ env: LARGE });
    const wait = await followed;
    expect(wait.code).toBe(0);
    expect(wait.stderr).toContain('1 unit(s) fit no live worker');
    expect(wait.stderr).toContain(`wq replan ${secondId}`);
    // The results table's last row: `S(12)  <value>`.
    expect(wait.stdout).toMatch(new RegExp(`^S\\(12\\) +${knownSums([12]).get(12)}$`, 'm'));
    expect((await client.results([12]))[0]?.S).toBe(knownSums([12]).get(12));
  });
});
