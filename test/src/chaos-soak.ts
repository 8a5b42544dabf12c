// The chaos soak: rounds of a sweep of thousands of tiny units on 4 worker processes while a
// chaos loop, at random, kill -9s a worker and starts a new one, freezes one (SIGSTOP) past its
// lock time and thaws it, kill -9s Redis and restarts it from its AOF, and cuts a worker's
// network (a network namespace per worker host) and plugs it back. Every round must end with
// every S(n) exact. The first round runs without faults: the time the others take beyond it is
// the time lost to faults. Used by test/chaos.test.ts (a minute) and `npm run bench -- --chaos`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerEntry, exitOf } from '@weak-queens/producer';
import { freePort, isConnectionError, PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, knownSums } from '@weak-queens/shared/contracts';
import { canConnect } from './can-connect.js';
import { NetnsLab, netnsUnavailable, type Host } from './netns-hosts.js';
import { uniquePrefix } from './test-redis.js';
import { sleep, until } from './wait.js';
import { FAST_STALLS } from './worker-processes.js';

export type FaultKind = 'kill' | 'freeze' | 'redis-restart' | 'network-cut';
export const FAULT_KINDS: readonly FaultKind[] = ['kill', 'freeze', 'redis-restart', 'network-cut'];

export interface ChaosOptions {
  /** How long the chaos goes on; the round running at the end finishes (still under chaos). */
  readonly minutes: number;
  readonly workers?: number;
  /** The sweep of every round (default 1..13: about 5,000 units at `targetSeconds`). */
  readonly ns?: readonly number[];
  readonly targetSeconds?: number;
  /** Seconds between two faults, drawn uniformly from this range. */
  readonly pauseSeconds?: readonly [number, number];
  /** A line per fault and per round (default: none). */
  readonly log?: (line: string) => void;
}

export interface ChaosRound {
  readonly seconds: number;
  readonly units: number;
  readonly exact: boolean;
  /** Wrong or missing S(n) of this round, `n: got (published)`. */
  readonly wrong: readonly string[];
  readonly starts: number;
  readonly duplicates: number;
  readonly disagreements: number;
}

export interface ChaosReport {
  readonly baseline: ChaosRound;
  readonly rounds: readonly ChaosRound[];
  readonly faults: Readonly<Record<FaultKind, number>>;
  /** Why network cuts did not run (no root or no `ip netns`), when they did not. */
  readonly networkCutsUnavailable?: string;
  readonly exact: boolean;
  /** Units begun beyond the units stored, over the chaos rounds. */
  readonly unitsRerun: number;
  readonly duplicates: number;
  /** Σ (round seconds − baseline seconds) over the chaos rounds. */
  readonly secondsLost: number;
}

/** Kills Redis hard and starts it again on the same address and data (AOF, fsync always). */
interface RedisHost {
  readonly url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts and kills worker processes in slots; in a lab each slot is a host of its own. */
interface WorkerSlots {
  start(slot: number, prefix: string): void;
  process(slot: number): ChildProcess | undefined;
  stopAll(): Promise<void>;
  /** Cuts the slot's network for `ms`, or undefined when there is no lab. */
  cut?(slot: number, ms: number): Promise<void>;
}

const REDIS_PORT = 6379;

export async function runChaosSoak(options: ChaosOptions): Promise<ChaosReport> {
  const workerCount = options.workers ?? 4;
  const ns = options.ns ?? Array.from({ length: 13 }, (_, i) => i + 1);
  const targetSeconds = options.targetSeconds ?? 1e-4;
  const [pauseMin, pauseMax] = options.pauseSeconds ?? [2, 5];
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'wq-chaos-'));
  const unavailable = netnsUnavailable();
  const lab = unavailable
    ? undefined
    : new NetnsLab(Array.from({ length: workerCount }, (_, i) => `c${i}`));
  const faults: Record<FaultKind, number> = {
    kill: 0,
    freeze: 0,
    'redis-restart': 0,
    'network-cut': 0,
  };
  const deck: FaultKind[] = [];
  let redis: RedisHost | undefined;
  let slots: WorkerSlots | undefined;
  try {
    redis = await startRedis(dir, lab);
    slots = workerSlots(redis.url, lab, workerCount);
    const round = async (chaos: boolean): Promise<ChaosRound> => {
      const prefix = uniquePrefix('chaos');
      for (let s = 0; s < workerCount; s++) slots?.start(s, prefix);
      const started = performance.now();
      const done = { value: false };
      const loop = chaos
        ? chaosLoop({
            redis: redis!,
            slots: slots!,
            prefix,
            workerCount,
            faults,
            done,
            log,
            pause: [pauseMin, pauseMax],
            cuts: lab !== undefined,
            deck,
          })
        : Promise.resolve();
      try {
        return await sweepRound(redis!.url, prefix, ns, targetSeconds, started);
      } finally {
        done.value = true;
        await loop;
        await slots?.stopAll();
      }
    };

    log(`baseline round: n = ${ns[0]}..${ns[ns.length - 1]} on ${workerCount} workers, no faults`);
    const baseline = await round(false);
    log(`  ${baseline.units} units in ${baseline.seconds.toFixed(1)} s, exact: ${baseline.exact}`);
    const rounds: ChaosRound[] = [];
    const deadline = performance.now() + options.minutes * 60_000;
    while (rounds.length === 0 || performance.now() < deadline) {
      const r = await round(true);
      rounds.push(r);
      log(
        `chaos round ${rounds.length}: ${r.seconds.toFixed(1)} s, exact: ${r.exact}, ` +
          `re-runs ${r.starts - r.units}, duplicates ${r.duplicates}`,
      );
    }
    const unitsRerun = rounds.reduce((t, r) => t + Math.max(0, r.starts - r.units), 0);
    return {
      baseline,
      rounds,
      faults,
      ...(unavailable ? { networkCutsUnavailable: unavailable } : {}),
      exact: baseline.exact && rounds.every((r) => r.exact),
      unitsRerun,
      duplicates: rounds.reduce((t, r) => t + r.duplicates, 0),
      secondsLost: rounds.reduce((t, r) => t + r.seconds - baseline.seconds, 0),
    };
  } finally {
    await slots?.stopAll();
    await redis?.stop();
    await lab?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Submits the sweep under a fresh prefix and waits for it; reads its counters after. */
async function sweepRound(
  url: string,
  prefix: string,
  ns: readonly number[],
  targetSeconds: number,
  started: number,
): Promise<ChaosRound> {
  // A client that keeps retrying while Redis is away: it is the user's `wq sweep --wait`.
  const client = new PipelineClient(compileConfig({ REDIS_URL: url, WQ_PREFIX: prefix }));
  try {
    const { sweep } = await withRetries(() => client.submit(ns, { targetSeconds }));
    const units = Object.values(sweep.units).reduce((a, b) => a + b, 0);
    await withRetries(() => client.waitFor(sweep.id, { intervalMs: 250 }));
    const seconds = (performance.now() - started) / 1000;
    const results = await withRetries(() => client.results(ns));
    const known = knownSums(ns);
    const wrong = results
      .filter((r) => r.S !== known.get(r.n))
      .map((r) => `${r.n}: ${r.S ?? 'missing'} (published ${known.get(r.n)})`);
    const { starts, duplicates } = await withRetries(() => client.store.counters());
    const disagreements = (await withRetries(() => client.store.disagreements())).length;
    return {
      seconds,
      units,
      exact: wrong.length === 0 && disagreements === 0,
      wrong,
      starts,
      duplicates,
      disagreements,
    };
  } finally {
    await Promise.race([client.close(), sleep(2000)]);
  }
}

/** Runs `body` again while Redis is being restarted under it (connection errors only). */
async function withRetries<T>(body: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await body();
    } catch (err) {
      const loading = err instanceof Error && err.message.startsWith('LOADING');
      if (attempt >= 60 || !(isConnectionError(err) || loading)) throw err;
      await sleep(500);
    }
  }
}

interface LoopContext {
  readonly redis: RedisHost;
  readonly slots: WorkerSlots;
  readonly prefix: string;
  readonly workerCount: number;
  readonly faults: Record<FaultKind, number>;
  readonly done: { value: boolean };
  readonly log: (line: string) => void;
  readonly pause: readonly [number, number];
  readonly cuts: boolean;
  /** Faults still to come in this shuffle; kept across rounds so every kind comes round. */
  readonly deck: FaultKind[];
}

/** One fault at a time, in a shuffled order of the kinds, so every kind comes round. */
async function chaosLoop(ctx: LoopContext): Promise<void> {
  const kinds = FAULT_KINDS.filter((k) => ctx.cuts || k !== 'network-cut');
  const lockMs = Number(FAST_STALLS.WQ_LOCK_MS);
  while (!ctx.done.value) {
    await sleep(1000 * (ctx.pause[0] + Math.random() * (ctx.pause[1] - ctx.pause[0])));
    if (ctx.done.value) return;
    if (ctx.deck.length === 0) ctx.deck.push(...shuffle([...kinds]));
    const kind = ctx.deck.pop() as FaultKind;
    const slot = Math.floor(Math.random() * ctx.workerCount);
    const child = ctx.slots.process(slot);
    switch (kind) {
      case 'kill':
        if (child?.exitCode === null) child.kill('SIGKILL');
        if (child) await exitOf(child);
        ctx.slots.start(slot, ctx.prefix);
        break;
      case 'freeze':
        if (child?.exitCode !== null) continue;
        child.kill('SIGSTOP');
        await sleep(lockMs + 1500);
        child.kill('SIGCONT');
        break;
      case 'redis-restart':
        await ctx.redis.restart();
        break;
      case 'network-cut':
        await ctx.slots.cut?.(slot, lockMs + 2000);
        break;
    }
    ctx.faults[kind]++;
    ctx.log(`  fault: ${kind}${kind === 'redis-restart' ? '' : ` (worker ${slot})`}`);
  }
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

async function startRedis(dir: string, lab: NetnsLab | undefined): Promise<RedisHost> {
  const address = lab ? lab.redis.address : '127.0.0.1';
  const port = lab ? REDIS_PORT : await freePort();
  // fsync on every write: a kill -9 loses nothing that Redis acknowledged.
  const args = [
    '--bind',
    address,
    '--port',
    String(port),
    '--protected-mode',
    'no',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--dir',
    dir,
  ];
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    child = lab
      ? lab.spawnIn(lab.redis, 'redis-server', args, { ...process.env })
      : spawn('redis-server', args, { stdio: 'ignore' });
    await until('Redis to answer', () => canConnect(address, port), 20_000);
  };
  const kill = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exitOf(child);
    }
  };
  await launch();
  return {
    url: `redis://${address}:${port}`,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: kill,
  };
}

function workerSlots(url: string, lab: NetnsLab | undefined, count: number): WorkerSlots {
  const processes: (ChildProcess | undefined)[] = Array.from({ length: count });
  const hosts: (Host | undefined)[] = lab ? lab.workers : [];
  return {
    start(slot, prefix) {
      const env = {
        ...process.env,
        REDIS_URL: url,
        WQ_PREFIX: prefix,
        WQ_CONCURRENCY: '1',
        // Lost locks and dropped connections are what this soak is made of: not worth a line.
        LOG_LEVEL: 'fatal',
        ...FAST_STALLS,
      };
      const host = hosts[slot];
      processes[slot] =
        lab && host ? lab.spawnIn(host, process.execPath, [workerEntry()], env) : spawnLocal(env);
    },
    process: (slot) => processes[slot],
    async stopAll() {
      await Promise.all(
        processes.map(async (child) => {
          if (!child) return;
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGCONT');
            child.kill('SIGKILL');
          }
          await exitOf(child);
        }),
      );
      processes.fill(undefined);
    },
    ...(lab
      ? {
          async cut(slot: number, ms: number) {
            const host = hosts[slot];
            if (!host) return;
            lab.cut(host);
            await sleep(ms);
            lab.restore(host);
          },
        }
      : {}),
  };
}

function spawnLocal(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [workerEntry()], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}
