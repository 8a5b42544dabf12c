// Scheduling and sizing with real workers and a real Redis: units taken largest first (BullMQ
// priorities), the memory cap (planner and worker), and the cost model calibrated from
// measured unit times, shown next to the estimates in `wq status --json`.
import { type Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { PipelineClient, type StatusReport, unitPriority } from '@weak-queens/shared/client';
import { chooseAlgorithm, estimateCost } from '@weak-queens/shared/kernel';
import {
  QUEUE_NAMES,
  storeKeys,
  type UnitJobData,
  type UnitResult,
  KNOWN_S,
} from '@weak-queens/shared/contracts';
import { ResultStore } from '@weak-queens/shared/client';
import { baselineCounts, pipelineFixture, type TestPipeline } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const redis = pipelineFixture();
let prefix: string;
let pipeline: TestPipeline;
let queue: Queue | undefined;

function setUp(label: string, env: Record<string, string> = {}): PipelineClient {
  pipeline = redis.openPipeline(label, { env });
  prefix = pipeline.prefix;
  const count = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
  pipeline.defer(() => count.close());
  queue = count;
  return pipeline.client;
}

/** N(n, ·) by the C++ baseline, not the kernel the workers ran. */
const exactN = baselineCounts;

describe('when a sweep is queued', () => {
  it('gives each unit the priority of its expected seconds and runs the largest first', async () => {
    const c = setUp('priority', { WQ_TARGET_SECONDS: '0.0005' });
    // Everything is queued before the one worker starts, so it sees the whole sweep.
    // Units under 50 ms are no longer split for their own sake: n = 11 makes the sweep long.
    const { sweep } = await c.submit([9, 10, 11]);
    const waiting = (await queue!.getJobs(['prioritized', 'waiting'])) as Job<UnitJobData>[];
    expect(waiting.length).toBeGreaterThan(20);
    for (const job of waiting)
      expect(job.opts.priority).toBe(unitPriority(job.data.estimateSeconds));

    pipeline.startWorkers(1);
    await c.waitFor(sweep.id);
    expect((await c.results([9, 10, 11])).map((r) => r.S)).toEqual([
      '409828485',
      '10570235486',
      '301407798711',
    ]);

    const done = ((await queue!.getJobs(['completed'])) as Job<UnitJobData>[]).sort(
      (a, b) => (a.processedOn ?? 0) - (b.processedOn ?? 0),
    );
    expect(done).toHaveLength(waiting.length);
    // One worker, one unit at a time: a unit started later never outranks one started earlier.
    for (let i = 1; i < done.length; i++) {
      const [before, after] = [done[i - 1]!, done[i]!];
      if ((after.processedOn ?? 0) > (before.processedOn ?? 0)) {
        expect(after.opts.priority ?? 0).toBeGreaterThanOrEqual(before.opts.priority ?? 0);
      }
    }
  });
});

describe('when units would need more memory than WQ_WORKER_MEMORY', () => {
  it('plans those (n, D) with the DFS and still gives the exact values', async () => {
    // N(9, 3) by the transfer needs about 1.5 KB: a 1 KiB worker moves it to the DFS.
    const cap = 1024;
    const c = setUp('cap', { WQ_WORKER_MEMORY: String(cap) });
    pipeline.startWorkers(2);
    const { sweep } = await c.submit([9]);
    await c.waitFor(sweep.id);
    const record = await c.store.record(9);
    expect(record?.S).toBe('409828485');
    expect(record?.depths.map((d) => d.value)).toEqual(exactN(9));
    const expected = Array.from({ length: 9 }, (_, d) =>
      chooseAlgorithm(9, d).algorithm === 'window-transfer' &&
      estimateCost('window-transfer', 9, d, []).bytes <= cap
        ? 'window-transfer'
        : 'dfs',
    );
    expect(record?.depths.map((d) => d.algorithm)).toEqual(expected);
    // The cap did change the plan: some (n, D) the kernel would give the table went to the DFS.
    const moved = expected.filter(
      (a, d) => a === 'dfs' && chooseAlgorithm(9, d).algorithm === 'window-transfer',
    );
    expect(moved.length).toBeGreaterThan(0);
  });

  it('a worker with less memory than the plan counts the unit with the DFS, by the memory it advertises', async () => {
    const c = setUp('worker-cap');
    // N(8, 2) by the transfer needs about 220 bytes: this worker takes units of 100 at most.
    // Planned before it starts (for this machine's worker), so the plan exceeds what it holds.
    const { sweep } = await c.submit([8]);
    pipeline.startWorkers(1, { env: { WQ_WORKER_MEMORY: '100' } });
    await c.waitFor(sweep.id);
    const record = await c.store.record(8);
    expect(record?.S).toBe(KNOWN_S[7]);
    expect(record?.depths.map((d) => d.value)).toEqual(exactN(8));
    // What its heartbeat advertises is what it guarded with: its whole memory for a transfer.
    const [worker] = await c.registry.liveWorkers();
    expect({ memory: worker?.memoryBytes, slot: worker?.slotBytes }).toEqual({
      memory: 100,
      slot: Math.floor(100 / (worker?.concurrency ?? 1)),
    });
    let moved = 0;
    for (const d of record?.depths ?? []) {
      const planned = estimateCost('window-transfer', 8, d.depth, []).bytes;
      if (chooseAlgorithm(8, d.depth).algorithm !== 'window-transfer') continue;
      const expected = planned > 100 ? 'dfs' : 'window-transfer';
      expect([d.depth, d.algorithm]).toEqual([d.depth, expected]);
      if (expected === 'dfs') moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });
});

describe('when units are measured', () => {
  it('counts a unit once in the calibration, however often it is stored', async () => {
    setUp('calibrate');
    const raw = new Redis(redis.url);
    const store = new ResultStore(raw, prefix);
    try {
      const unit: UnitResult = {
        kind: 'unit',
        n: 9,
        depth: 8,
        unit: '0',
        value: '2',
        algorithm: 'dfs',
        seconds: 1.5,
        worker: 'w1',
        estimateSeconds: 0.5,
        modelSeconds: 0.5,
      };
      await store.putUnit(unit);
      await store.putUnit(unit);
      // Too small to say anything about the model (dominated by per-unit overhead).
      await store.putUnit({ ...unit, unit: '1', seconds: 0.02, modelSeconds: 0.001 });
      expect(await store.calibration()).toEqual({
        dfs: { units: 1, modelSeconds: 0.5, actualSeconds: 1.5, ratio: 3 },
      });
      expect((await store.units(9, 8)).get('0')).toEqual(unit);
    } finally {
      raw.disconnect();
    }
  });

  it('plans with the measured ratio and shows estimates next to actual times', async () => {
    const c = setUp('status');
    // As if earlier sweeps had measured the DFS at 3× its model.
    const raw = new Redis(redis.url);
    await raw.hset(storeKeys(prefix).calibration, {
      'dfs:units': '5',
      'dfs:model': '2',
      'dfs:actual': '6',
    });
    raw.disconnect();

    const { sweep } = await c.submit([7]);
    const jobs = (await queue!.getJobs(['prioritized', 'waiting'])) as Job<UnitJobData>[];
    expect(jobs).toHaveLength(sweep.units['7']!);
    for (const job of jobs) {
      const ratio = job.data.algorithm === 'dfs' ? 3 : 1;
      expect(job.data.estimateSeconds).toBeCloseTo(ratio * job.data.modelSeconds!, 12);
    }
    pipeline.startWorkers(1);
    await c.waitFor(sweep.id);

    const status = await runWq(['status', '--json'], { url: redis.url, prefix });
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as StatusReport;
    expect(report.calibration.dfs).toEqual({
      units: 5,
      modelSeconds: 2,
      actualSeconds: 6,
      ratio: 3,
    });
    const size = report.sweeps[0]?.sizes[0];
    expect(size?.S).toBe(KNOWN_S[6]);
    const timing = size?.timing;
    const planned = jobs.reduce((t, j) => t + j.data.estimateSeconds, 0);
    expect(timing?.estimateSeconds).toBeCloseTo(planned, 12);
    expect(timing?.depths.map((d) => d.depth)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const d of timing?.depths ?? []) {
      const own = jobs.filter((j) => j.data.depth === d.depth);
      expect(d.units).toBe(own.length);
      expect(d.estimateSeconds).toBeCloseTo(
        own.reduce((t, j) => t + j.data.estimateSeconds, 0),
        12,
      );
      expect(d.actualSeconds).toBeGreaterThan(0);
    }
    expect(timing?.actualSeconds).toBeCloseTo(
      timing?.depths.reduce((t, d) => t + d.actualSeconds, 0) ?? -1,
      12,
    );
  });
});

describe('when a sweep is planned for a cluster far larger than the workers here', () => {
  it('counts the transfer it splits into parts on real workers, and each such N(14, D) is exact', async () => {
    const c = setUp('parts');
    pipeline.startWorkers(2);
    // 1024 one-slot workers: N(14, 6) by the transfer would bound the makespan (see wq plan;
    // n = 13's transfers are too short to gain from parts since the DFS runs as WebAssembly).
    const cluster = { workers: 1024, slots: 1, workerMemoryBytes: 3 * 2 ** 30 };
    const { sweep } = await c.submit([14], { cluster });
    await c.waitFor(sweep.id);
    const record = await c.store.record(14);
    expect(record?.S).toBe(KNOWN_S[13]);
    expect(record?.depths.map((d) => d.value)).toEqual(exactN(14));
    // Which (n, D) bounds the makespan follows the cost model (`wq plan 14 --workers 1024
    // --slots 1 --memory 3GiB` names it); every one split into parts is checked.
    let split = 0;
    for (let d = 0; d < 14; d++) {
      const parts = await c.store.units(14, d);
      const keys = [...parts.keys()].sort();
      if (!keys.every((k) => /^\*\d+\/\d+$/.test(k))) continue;
      if (keys.length < 2) continue;
      split++;
      expect(keys).toEqual(
        Array.from({ length: keys.length }, (_, i) => `*${i}/${keys.length}`).sort(),
      );
      expect([...parts.values()].every((u) => u.algorithm === 'window-transfer')).toBe(true);
      expect(String([...parts.values()].reduce((t, u) => t + BigInt(u.value), 0n))).toBe(
        exactN(14)[d],
      );
    }
    expect(split).toBeGreaterThan(0);
  });
});
