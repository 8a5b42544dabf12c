// `npm run bench -- --verify-cost [--ns 1-15]`: what a verified sweep costs beside a plain one.
// The same sizes on a fresh deployment each (a private redis-server with AOF, 2 worker
// processes with the default slots), first plain, then with --verify: wall time, the AOF's
// growth, how often any job was fetched, and the core-seconds of the first and second counts
// (their units' own seconds). Goals: the verified sweep's wall time at most 1.1 × the counts'
// core-seconds ÷ the slots (the second count waits for its first without polling), its AOF at
// most 2× the plain sweep's, no job fetched more than 3 times.
import { availableParallelism } from 'node:os';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { LocalCluster } from './local-cluster.js';

const WORKERS = 2;
const GOALS = { wallOverCore: 1.1, aofRatio: 2, fetches: 3 } as const;

interface Run {
  readonly wallSeconds: number;
  readonly aofBytes: number;
  readonly jobs: number;
  readonly maxFetches: number;
  readonly primarySeconds: number;
  readonly checkSeconds: number;
  readonly exact: boolean;
}

async function aofSize(url: string): Promise<number> {
  const redis = new Redis(url);
  try {
    const text = await redis.info('persistence');
    return Number(/aof_current_size:(\d+)/.exec(text)?.[1] ?? 0);
  } finally {
    redis.disconnect();
  }
}

async function runOnce(ns: readonly number[], verify: boolean, slots: number): Promise<Run> {
  const cluster = await LocalCluster.start({ workers: WORKERS, concurrency: slots });
  try {
    const url = cluster.redisUrl;
    const before = await aofSize(url);
    const sweep = await cluster.sweep(ns, verify ? { verify: true } : {});
    const aofBytes = (await aofSize(url)) - before;
    let jobs = 0;
    let maxFetches = 0;
    for (const name of [QUEUE_NAMES.count, QUEUE_NAMES.aggregate]) {
      const queue = new Queue(name, { connection: { url }, prefix: '{wq-bench}' });
      for (const job of await queue.getJobs(['completed', 'failed'])) {
        jobs++;
        maxFetches = Math.max(maxFetches, job.attemptsStarted);
      }
      await queue.close();
    }
    let primarySeconds = 0;
    let checkSeconds = 0;
    for (const unit of await cluster.client.store.unitResults(ns)) {
      if (!unit) continue;
      if (unit.role === 'check') checkSeconds += unit.seconds;
      else primarySeconds += unit.seconds;
    }
    const exact = (await import('@weak-queens/shared/contracts')).KNOWN_S.every(
      (S, i) => !ns.includes(i + 1) || sweep.S.get(i + 1) === S,
    );
    return {
      wallSeconds: sweep.seconds,
      aofBytes,
      jobs,
      maxFetches,
      primarySeconds,
      checkSeconds,
      exact,
    };
  } finally {
    await cluster.stop();
  }
}

export async function runVerifyCostBench(options: { ns?: readonly number[] }): Promise<boolean> {
  const ns = options.ns ?? Array.from({ length: 15 }, (_, i) => i + 1);
  const slots = availableParallelism();
  const label = `${ns[0]}-${ns.at(-1)}`;
  console.error(`  sweep ${label} on ${WORKERS} workers × ${slots} slots, plain …`);
  const plain = await runOnce(ns, false, slots);
  console.error(`  sweep ${label} --verify …`);
  const verified = await runOnce(ns, true, slots);
  const total = WORKERS * slots;
  const coreBound = (verified.primarySeconds + verified.checkSeconds) / total;
  const wallOverCore = verified.wallSeconds / coreBound;
  const aofRatio = verified.aofBytes / plain.aofBytes;
  const row = (name: string, r: Run) =>
    `| ${name} | ${r.wallSeconds.toFixed(1)} | ${r.primarySeconds.toFixed(1)} | ${r.checkSeconds.toFixed(1)} | ${(r.aofBytes / 2 ** 20).toFixed(2)} | ${r.jobs} | ${r.maxFetches} | ${r.exact ? 'yes' : 'NO'} |`;
  const goals = [
    {
      text: `wall ÷ (core-seconds ÷ ${total} slots) = ${wallOverCore.toFixed(2)} (goal ≤ ${GOALS.wallOverCore})`,
      met: wallOverCore <= GOALS.wallOverCore,
    },
    {
      text: `AOF ${aofRatio.toFixed(2)}× the plain sweep's (goal ≤ ${GOALS.aofRatio}×)`,
      met: aofRatio <= GOALS.aofRatio,
    },
    {
      text: `most fetches of one job ${verified.maxFetches} (goal ≤ ${GOALS.fetches})`,
      met: verified.maxFetches <= GOALS.fetches,
    },
    { text: 'every S(n) exact, both sweeps', met: plain.exact && verified.exact },
  ];
  const secondShare = verified.checkSeconds / (verified.primarySeconds + verified.checkSeconds);
  console.log(
    [
      '| sweep | wall s | 1st count core-s | 2nd count core-s | AOF MiB | jobs | most fetches | exact |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      row(`${label}`, plain),
      row(`${label} --verify`, verified),
      '',
      ...goals.map((g) => `- ${g.text}: ${g.met ? 'met' : 'NOT met'}`),
      `- the second counts' own work: ${(secondShare * 100).toFixed(0)} % of the verified sweep's core-seconds, ${(verified.checkSeconds / total).toFixed(1)} s of its ${verified.wallSeconds.toFixed(1)} s on ${total} slots`,
    ].join('\n'),
  );
  return goals.every((g) => g.met);
}
