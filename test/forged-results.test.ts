// Someone who can write to Redis tries to publish a wrong S(n): aggregate jobs with foreign
// children or a forged `:processed` hash, and records written straight into the result store,
// with and without WQ_RESULT_KEY. Real workers, a real Redis; every S(n) shown is exact or absent.
import { FlowProducer, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { type PipelineClient, ResultStore } from '@weak-queens/shared/client';
import {
  depthJobId,
  KNOWN_S,
  QUEUE_NAMES,
  storeKeys,
  sumJobId,
} from '@weak-queens/shared/contracts';
import { baselineN, failedReason, pipelineFixture, type TestPipeline, until } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const redis = pipelineFixture();
const KEY = 'forged-results-test-key-0123456789';
type Env = Record<string, string>;

function open(label: string, env: Record<string, string> = {}): TestPipeline {
  const pipeline = redis.openPipeline(label, { env });
  return pipeline;
}

/** `wq args` on `p` (with `env`), which must exit 0. */
async function wq(p: TestPipeline, args: string[], env: Env) {
  const run = await runWq(args, { url: p.url, prefix: p.prefix, ...env });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

async function shownS(p: TestPipeline, n: number, env: Env = {}) {
  const shown = await wq(p, ['results', String(n), '--json'], env);
  return (JSON.parse(shown.stdout.trim()) as { S: string | null }).S;
}

/** `wq sweep n --wait` (besides `flags`) exits 0 and, with `exact`, S(n) shows its reference. */
async function sweep(
  p: TestPipeline,
  n: number,
  env: Env = {},
  flags: string[] = [],
  exact = true,
) {
  await wq(p, ['sweep', String(n), '--wait', ...flags], env);
  if (exact) expect(await shownS(p, n, env)).toBe(KNOWN_S[n - 1]);
}

/**
 * `p` with S(n) swept by two workers, a raw connection to its Redis to forge with (closed
 * with `p`), and the stored record of N(n, D).
 */
async function sweptForForging(p: TestPipeline, n: number, env: Record<string, string> = {}) {
  p.startWorkers(2, { env });
  await sweep(p, n, env, [], false);
  const r = new Redis(p.url);
  p.defer(() => r.disconnect());
  const keys = storeKeys(p.prefix);
  /** The record of N(n, D) as the store holds it (the fields the tests forge with). */
  const depthRecord = async (d: number) =>
    JSON.parse((await r.hget(keys.depths(n), String(d))) ?? '{}') as {
      value: string;
      planId: string;
      algorithm: string;
    };
  return { r, keys, depthRecord };
}

describe('when a sum job is added whose children live in another queue', () => {
  it('is refused, changes nothing, and the sweep then publishes the exact S(9)', async () => {
    const p = open('foreign-sum');
    const connection = { url: p.url };
    const flows = new FlowProducer({ connection, prefix: p.prefix });
    // Another queue's worker answers N(9, 4) raised by 100, as the finding had it.
    const evil = new Worker(
      'evil',
      () =>
        Promise.resolve({
          kind: 'depth',
          n: 9,
          depth: 4,
          value: (BigInt(baselineN(9, 4)) + 100n).toString(),
          algorithm: 'dfs',
          units: 1,
          seconds: 0.1,
          workers: ['w-evil'],
        }),
      { connection, prefix: p.prefix },
    );
    p.defer(() => evil.close());
    p.defer(() => flows.close());
    await flows.add({
      name: 'sum',
      queueName: QUEUE_NAMES.aggregate,
      data: { sweepId: 'forged', n: 9 },
      opts: { jobId: sumJobId(9) },
      children: [{ name: 'depth', queueName: 'evil', data: {}, opts: { jobId: 'n9-d4' } }],
    });
    p.startWorkers(1);
    const aggregate = new Queue(QUEUE_NAMES.aggregate, { connection, prefix: p.prefix });
    p.defer(() => aggregate.close());
    expect(await failedReason(aggregate, sumJobId(9))).toBe(
      `children: 1 child job(s) outside this pipeline's queues (${p.prefix}:evil:n9-d4)`,
    );
    // Nothing of n = 9 was stored: `wq results` shows it missing, says so and exits 1.
    expect(await runWq(['results', '9', '--json'], { url: p.url, prefix: p.prefix })).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ n: 9, S: null, N: Array(9).fill(null) })}\n`,
      stderr: 'wq results: nothing stored for n = 9\n',
    });

    await sweep(p, 9, {}, ['--json']);
  });
});

describe('when a depth job is added with a forged :processed entry', () => {
  it('sums the stored units instead, so N(13, 5) and S(13) stay exact', async () => {
    const p = open('forged-processed');
    const { r, keys, depthRecord } = await sweptForForging(p, 13);
    const stored = await depthRecord(5);
    // As the attacker would: the results go, and a depth job of the recorded plan comes with
    // a `:processed` hash whose one child says N(13, 5) + 1000.
    await r.hdel(keys.depths(13), '5');
    await r.hdel(keys.sums, '13');
    await r.hdel(keys.records, '13');
    const plan = await new ResultStore(r, p.prefix).plan(13, 5, stored.planId);
    const unitKeys = [...(plan?.units.keys() ?? [])];
    const aggregate = new Queue(QUEUE_NAMES.aggregate, {
      connection: { url: p.url },
      prefix: p.prefix,
    });
    p.defer(() => aggregate.close());
    const forgedValue = (BigInt(baselineN(13, 5)) + 1000n).toString();
    await r.hset(
      `${p.prefix}:${QUEUE_NAMES.aggregate}:${depthJobId(13, 5)}:processed`,
      `${p.prefix}:${QUEUE_NAMES.count}:n13-d5-p${stored.planId}-u0`,
      JSON.stringify({
        kind: 'unit',
        n: 13,
        depth: 5,
        unit: unitKeys[0],
        value: forgedValue,
        algorithm: stored.algorithm,
        seconds: 1,
        worker: 'w-evil',
      }),
    );
    const job = await aggregate.add(
      'depth',
      {
        sweepId: 'forged',
        n: 13,
        depth: 5,
        algorithm: stored.algorithm,
        unitKeys,
        planId: stored.planId,
      },
      { jobId: depthJobId(13, 5) },
    );
    await until('the forged depth job to finish', async () => {
      const state = await aggregate.getJobState(String(job.id));
      return state === 'completed' || state === 'failed';
    });
    const client: PipelineClient = p.client;
    expect((await client.store.depths(13)).get(5)?.value).toBe(baselineN(13, 5));

    await sweep(p, 13);
  });
});

describe('when a wrong N(n, D) is written straight into the result store', () => {
  it('without the key: a record its units do not bear out is counted again, and S(10) is exact', async () => {
    const p = open('forged-record');
    const { r, keys, depthRecord } = await sweptForForging(p, 10);
    const record = await depthRecord(4);
    const wrong = (BigInt(record.value) + 100n).toString();
    await r.hset(keys.depths(10), '4', JSON.stringify({ ...record, value: wrong }));
    // A forged S(10) beside it is not shown: it disagrees with its record and its reference.
    await r.hset(keys.sums, '10', '409828585');
    expect(await shownS(p, 10)).toBeNull();
    await r.hdel(keys.sums, '10');
    await r.hdel(keys.records, '10');

    await sweep(p, 10);
    expect((await p.client.store.depths(10)).get(4)?.value).toBe(record.value);

    const status = await runWq(['status'], { url: p.url, prefix: p.prefix });
    expect(status.stdout).toContain(
      'results: unauthenticated (WQ_RESULT_KEY is not set: anyone who can write to Redis can forge a record that passes every check)',
    );
  });

  it('with the key: records without a valid MAC are not results, are reported, and are counted again', async () => {
    const env = { WQ_RESULT_KEY: KEY };
    const p = open('forged-sealed', env);
    const { r, keys, depthRecord } = await sweptForForging(p, 10, env);
    // A depth record and a unit record with a wrong value (their MACs no longer verify), and
    // a wrong S(10) with its record.
    const depth = await depthRecord(4);
    await r.hset(
      keys.depths(10),
      '4',
      JSON.stringify({ ...depth, value: (BigInt(depth.value) + 100n).toString() }),
    );
    const unitKey = (await r.hkeys(keys.units(10, 6)))[0] ?? '';
    const unit = JSON.parse((await r.hget(keys.units(10, 6), unitKey)) ?? '{}') as {
      value: string;
    };
    await r.hset(
      keys.units(10, 6),
      unitKey,
      JSON.stringify({ ...unit, value: (BigInt(unit.value) + 1n).toString() }),
    );
    await r.hset(keys.sums, '10', '409828585');
    expect(await shownS(p, 10, env)).toBeNull();
    const status = await runWq(['status'], { url: p.url, prefix: p.prefix, ...env });
    expect(status.stdout).not.toContain('results: unauthenticated');
    const reported = await p.client.store.disagreements();
    expect(
      reported.filter((d) => d.reason?.includes('MAC')).map((d) => [d.n, d.depth, d.unit]),
    ).toEqual(expect.arrayContaining([[10, 4, '#N']]));

    // Read as a result nowhere: the next sweep counts what they claimed, and publishes exactly;
    // the records in their place then verify, which settles those reports (none goes stale).
    await r.hdel(keys.sums, '10');
    await r.hdel(keys.records, '10');
    await sweep(p, 10, env);
    const after = await p.client.store.disagreements();
    expect(after.filter((d) => d.reason?.includes('MAC'))).toEqual([]);
  });
});

describe('when one N(n, D) is edited beside a published S(n), nothing else', () => {
  for (const keyed of [false, true]) {
    it(`${keyed ? 'with' : 'without'} the key: neither is shown, it is named, and the next sweep counts that D again`, async () => {
      const env: Env = keyed ? { WQ_RESULT_KEY: KEY } : {};
      const p = open(keyed ? 'edited-one-sealed' : 'edited-one', env);
      const { r, keys, depthRecord } = await sweptForForging(p, 12, env);
      // N(12, 7) raised by 5 in the N hash only: its unit record, S(12) and S(12)'s record
      // are left as they were (the probe of issue 41).
      const record = await depthRecord(7);
      const edited = (BigInt(record.value) + 5n).toString();
      await r.hset(keys.depths(12), '7', JSON.stringify({ ...record, value: edited }));

      const shown = await wq(p, ['results', '12', '--json'], env);
      const line = JSON.parse(shown.stdout.trim()) as { S: string | null; N: (string | null)[] };
      expect([line.S, line.N[7]]).toEqual([null, null]);
      expect(line.N).not.toContain(edited);
      const named = await p.client.store.disagreements();
      expect(named.map((d) => [d.n, d.depth, d.unit])).toContainEqual([12, 7, '#R']);

      // --verify does not skip it either: the sweep counts D = 7 again and publishes exactly.
      const again = await wq(p, ['sweep', '12', '--verify', '--wait', '--json'], env);
      const swept = JSON.parse(again.stdout.trim()) as { S: string; N: string[] };
      expect([swept.S, swept.N[7]]).toEqual([KNOWN_S[11], baselineN(12, 7)]);
      expect(await shownS(p, 12, env)).toBe(KNOWN_S[11]);
      // Counted again, the disagreement is settled.
      const left = await p.client.store.disagreements();
      expect(left.filter((d) => d.n === 12 && d.unit === '#R')).toEqual([]);
    });
  }
});

describe('when a wrong S(n) is written while `--wait` follows its sweep', () => {
  it('does not end the wait: it ends once the sweep has published every S(n), exactly', async () => {
    const p = open('forged-while-waiting');
    const r = new Redis(p.url);
    p.defer(() => r.disconnect());
    // No worker yet: both flows wait in the queues.
    const { sweep } = await p.client.submit([8, 11]);
    // A value for S(11) without a record: between two full reads, a finished sum only asks
    // whether every S(n) has a value, and this one does.
    await r.hset(storeKeys(p.prefix).sums, '11', '1');
    const waiting = p.client.waitFor(sweep.id, { intervalMs: 1000 });
    p.startWorkers(1);
    const progress = await waiting;
    expect(progress.sizes.map((s) => [s.n, s.state])).toEqual([
      [8, 'done'],
      [11, 'done'],
    ]);
    expect(await p.client.store.sums([8, 11])).toEqual(
      new Map([
        [8, KNOWN_S[7]],
        [11, KNOWN_S[10]],
      ]),
    );
  });
});

describe('when an S(n) is written alone into an empty store', () => {
  it('`wq results` shows nothing, says what is stored is not borne out, and exits 1', async () => {
    const p = open('forged-sum-alone');
    const r = new Redis(p.url);
    p.defer(() => r.disconnect());
    await r.hset(storeKeys(p.prefix).sums, '9', KNOWN_S[8] ?? '');
    expect(await runWq(['results', '9', '--json'], { url: p.url, prefix: p.prefix })).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ n: 9, S: null, N: Array(9).fill(null) })}\n`,
      stderr:
        'wq results: nothing shown for n = 9: what is stored for n = 9 is not borne out (edited, forged, or signed under another WQ_RESULT_KEY or none; see wq status), and a sweep of it counts it again\n',
    });
  });
});
