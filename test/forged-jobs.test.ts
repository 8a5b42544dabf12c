// Jobs nobody planned, written straight into the queues with a valid shape, against real
// workers and a real Redis: none of them may become a result, and a wrong value that got into
// the result store anyway is found and repaired by `wq verify`.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import {
  QUEUE_NAMES,
  storeKeys,
  type UnitResult,
  unitKey,
  KNOWN_S,
} from '@weak-queens/shared/contracts';
import { planUnits } from '@weak-queens/shared/kernel';
import { failedReason, pipelineFixture, type TestPipeline, until } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const redis = pipelineFixture();
let prefix: string;
let pipeline: TestPipeline;

function setUp(label: string): { c: PipelineClient; r: Redis } {
  pipeline = redis.openPipeline(label);
  prefix = pipeline.prefix;
  const raw = new Redis(redis.url);
  pipeline.defer(() => raw.disconnect());
  return { c: pipeline.client, r: raw };
}

function startWorkers(count: number): void {
  pipeline.startWorkers(count);
}

/** The ids of the recorded plans of (n, D). */
async function planIds(r: Redis, n: number, depth: number): Promise<string[]> {
  const keys = await r.keys(`${prefix}:plan:${n}:${depth}:*`);
  return keys.map((k) => k.split(':').pop() ?? '');
}

const S11 = KNOWN_S[10]!;

describe('when jobs nobody planned are added to the queues by hand', () => {
  it('refuses each with its reason and the sweep prints the exact S(11)', async () => {
    const { c, r } = setUp('forged');
    // Plan the sweep first (no worker yet), so the forgeries can name real plan ids.
    const { sweep } = await c.submit([11]);
    const [plan5] = await planIds(r, 11, 5);
    const [plan8] = await planIds(r, 11, 8);
    expect(plan5).toMatch(/^[0-9a-f]{12}$/);
    expect(plan8).toMatch(/^[0-9a-f]{12}$/);
    const count = new Queue(QUEUE_NAMES.count, { connection: { url: redis.url }, prefix });
    const aggregate = new Queue(QUEUE_NAMES.aggregate, { connection: { url: redis.url }, prefix });
    const base = { sweepId: 'forged', estimateSeconds: 0.01 };
    const dfsUnit = planUnits(11, 5, { algorithm: 'dfs', targetSeconds: 1e-4 })[0]!;
    const dfsKey = unitKey(dfsUnit.prefix, dfsUnit.middle);
    // The two shapes of the report.
    const wholeWeight2 = {
      ...base,
      n: 11,
      depth: 5,
      algorithm: 'window-transfer',
      prefix: [],
      weight: 2,
      whole: true,
    };
    const unitWeight1 = {
      ...base,
      n: 11,
      depth: 8,
      algorithm: 'dfs',
      prefix: [0],
      weight: 1,
      whole: false,
    };
    // Without a priority they run before every planned unit.
    const forgeries = {
      // The two shapes as they were (no plan id) ...
      'whole-weight-2': wholeWeight2,
      'unit-weight-1': unitWeight1,
      // ... and with the real plan ids, which they do not match.
      'whole-weight-2-planned': { ...wholeWeight2, planId: plan5 },
      'unit-weight-1-planned': { ...unitWeight1, planId: plan8 },
      // A legal DFS unit with the weight its rows give, which the plan (a transfer) does not have.
      'unplanned-unit': {
        ...base,
        n: 11,
        depth: 5,
        algorithm: 'dfs',
        prefix: dfsUnit.prefix,
        middle: dfsUnit.middle,
        weight: dfsUnit.weight,
        whole: false,
        planId: plan5,
      },
      // Years of work.
      huge: {
        ...base,
        n: 20,
        depth: 10,
        algorithm: 'dfs',
        prefix: [],
        weight: 1,
        whole: true,
        planId: plan5,
      },
      // A mirror image the plan never counts (first row in the right half).
      'right-half': {
        ...base,
        n: 11,
        depth: 8,
        algorithm: 'dfs',
        prefix: [10],
        weight: 2,
        whole: false,
        planId: plan8,
      },
    };
    for (const [id, data] of Object.entries(forgeries))
      await count.add('unit', data, { jobId: id });
    // A sum of N(11, 8) over one unit only.
    await aggregate.add(
      'depth',
      { sweepId: 'forged', n: 11, depth: 8, algorithm: 'dfs', unitKeys: ['0'], planId: plan8 },
      { jobId: 'partial-depth' },
    );

    startWorkers(2);
    const reasons: Record<string, string> = {};
    for (const id of Object.keys(forgeries)) reasons[id] = await failedReason(count, id);
    const partialDepth = await failedReason(aggregate, 'partial-depth');
    expect(partialDepth).toBe(
      `children: the units listed for N(11, 8) are not those of plan ${plan8}`,
    );
    expect(reasons).toEqual({
      'whole-weight-2': 'unit job.weight: 2 is not allowed; expected 1, as these rows give',
      'unit-weight-1':
        'unit job.prefix: [0] is not allowed; expected the fixed rows of a unit the plan for N(11, 8) makes',
      'whole-weight-2-planned': 'unit job.weight: 2 is not allowed; expected 1, as these rows give',
      'unit-weight-1-planned':
        'unit job.prefix: [0] is not allowed; expected the fixed rows of a unit the plan for N(11, 8) makes',
      'unplanned-unit': `unit job: unit ${dfsKey} of N(11, 5) is not in recorded plan ${plan5}; only planned units are counted`,
      huge: `unit job: unit * of N(20, 10) is not in recorded plan ${plan5}; only planned units are counted`,
      'right-half':
        'unit job.prefix: [10] is not allowed; expected the fixed rows of a unit the plan for N(11, 8) makes',
    });

    await c.waitFor(sweep.id);
    expect((await c.results([11]))[0]?.S).toBe(S11);
    await count.close();
    await aggregate.close();
  });
});

/** Stores a wrong N(n, D) (unit, depth and S(n)), as a corrupted or forged store would hold. */
async function corruptStored(r: Redis, n: number, depth: number, delta: bigint): Promise<void> {
  const keys = storeKeys(prefix);
  const depthJson = await r.hget(keys.depths(n), String(depth));
  const stored = JSON.parse(depthJson ?? '{}') as { value: string };
  const wrong = (BigInt(stored.value) + delta).toString();
  await r.hset(keys.depths(n), String(depth), JSON.stringify({ ...stored, value: wrong }));
  const S = await r.hget(keys.sums, String(n));
  await r.hset(keys.sums, String(n), (BigInt(S ?? '0') + delta).toString());
}

describe('when a wrong value is in the result store', () => {
  it('wq verify finds it, withdraws S(n), and --repair counts it again exactly', async () => {
    const { c, r } = setUp('verify-stored');
    startWorkers(2);
    const first = await runWq(['sweep', '10-11', '--wait', '--json'], { url: redis.url, prefix });
    expect(first.code, first.stderr).toBe(0);
    await corruptStored(r, 11, 5, 7n);
    // S(11) no longer holds (its reference says otherwise): it is never shown.
    expect(await r.hget(storeKeys(prefix).sums, '11')).toBe((BigInt(S11) + 7n).toString());
    expect((await c.results([11]))[0]?.S).toBeUndefined();

    const found = await runWq(['verify', '10-11'], { url: redis.url, prefix });
    expect(found.code, found.stdout + found.stderr).toBe(1);
    const lines = found.stdout.trim().split('\n');
    expect(lines[0]).toBe(`n=10 verified: S(10) = ${KNOWN_S[9]}`);
    expect(lines[1]).toMatch(
      /^n=11 disagrees: S\(11\) withdrawn; N\(11, 5\): stored \d+ \(\S+\), recount \d+ \(\S+\) \(wq verify 11 --repair\)$/,
    );
    expect((await c.results([11]))[0]?.S).toBeUndefined();

    const repaired = await runWq(['verify', '11', '--repair', '--json'], {
      url: redis.url,
      prefix,
    });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(JSON.parse(repaired.stdout)).toMatchObject({ n: 11, outcome: 'repaired', S: S11 });
    expect((await c.results([11]))[0]?.S).toBe(S11);
  });

  it('wq verify --repair, asked first, reports the repair only once it is done', async () => {
    const { c, r } = setUp('repair-first');
    startWorkers(2);
    const first = await runWq(['sweep', '11', '--wait', '--json'], { url: redis.url, prefix });
    expect(first.code, first.stderr).toBe(0);
    await corruptStored(r, 11, 5, 7n);
    // No verify before: the recount finds the disagreement, and the repair counts it afresh.
    const repaired = await runWq(['verify', '11', '--repair', '--json'], {
      url: redis.url,
      prefix,
    });
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
    expect(JSON.parse(repaired.stdout)).toMatchObject({ n: 11, outcome: 'repaired', S: S11 });
    // Done when it says so: nothing is still running in the background.
    expect((await c.results([11]))[0]?.S).toBe(S11);
    const again = await runWq(['verify', '11', '--json'], { url: redis.url, prefix });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ n: 11, outcome: 'verified', S: S11 });
  });

  it('keeps a unit counted twice with two values aside instead of overwriting it', async () => {
    const { c } = setUp('conflict');
    const unit: UnitResult = {
      kind: 'unit',
      n: 6,
      depth: 2,
      unit: '*',
      value: '100',
      algorithm: 'window-transfer',
      seconds: 0.001,
      worker: 'w-a',
    };
    expect(await c.store.putUnit(unit)).toBe('stored');
    expect(await c.store.putUnit({ ...unit, worker: 'w-b' })).toBe('duplicate');
    expect(await c.store.putUnit({ ...unit, value: '101', worker: 'w-c' })).toBe('conflict');
    expect((await c.store.units(6, 2)).get('*')?.value).toBe('100');
    const [kept] = await c.store.disagreements();
    expect(kept).toMatchObject({
      n: 6,
      depth: 2,
      role: 'primary',
      unit: '*',
      stored: '100',
      storedWorker: 'w-a',
      counted: '101',
      countedWorker: 'w-c',
    });
  });
});

describe('when S(n) is deleted by hand after its sweep finished', () => {
  it('the next sweep of that n counts it again instead of waiting forever', async () => {
    const { r } = setUp('deleted-sum');
    startWorkers(1);
    const first = await runWq(['sweep', '6', '--wait', '--json'], { url: redis.url, prefix });
    expect(first.code, first.stderr).toBe(0);
    await r.hdel(storeKeys(prefix).sums, '6');
    const again = await runWq(['sweep', '6', '--wait', '--json'], { url: redis.url, prefix });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ n: 6, S: KNOWN_S[5] });
  });
});

describe('when the calibration sums hold a value no unit could have written', () => {
  it('forgets them instead of planning with them', async () => {
    const { c, r } = setUp('calibration');
    const key = storeKeys(prefix).calibration;
    await r.hset(key, 'dfs:units', '3', 'dfs:model', '1e308', 'dfs:actual', '2');
    await r.hset(
      key,
      'window-transfer:units',
      '2',
      'window-transfer:model',
      '4',
      'window-transfer:actual',
      '6',
    );
    const calibration = await c.store.calibration();
    expect(calibration.dfs).toBeUndefined();
    expect(calibration['window-transfer']?.ratio).toBe(1.5);
    expect(await r.hgetall(key)).toEqual({
      'window-transfer:units': '2',
      'window-transfer:model': '4',
      'window-transfer:actual': '6',
    });
  });
});

describe('when a planned unit runs far past its work bound', () => {
  it('is stopped and failed with its reason', async () => {
    const { c, r } = setUp('bound');
    const { sweep } = await c.submit([14]);
    // A bound far below what any unit of N(14, 13) takes (the plan's bound is never under
    // 600 s). N(12, 11) was used before: its units take about a millisecond on warm kernel
    // threads, and could end before a 1 ms bound fired.
    const [plan] = await planIds(r, 14, 13);
    const key = `${prefix}:plan:14:13:${plan}`;
    const fields = await r.hgetall(key);
    for (const [unit, json] of Object.entries(fields)) {
      if (unit === '#') continue;
      const [weight, model] = JSON.parse(json) as [number, number, number];
      await r.hset(key, unit, JSON.stringify([weight, model, 0.001]));
    }
    startWorkers(1);
    await until(
      'n = 14 to fail',
      async () => (await c.progress(sweep.id)).sizes[0]?.state === 'failed',
      120_000,
    );
    const reason = (await c.progress(sweep.id)).sizes[0]?.reason ?? '';
    expect(reason).toContain('the unit ran past its work bound of 0.001 s');
  });
});
