// The pipeline on a real Redis Cluster (3 masters, 3 replicas, on this machine): a sweep through
// it is exact, `wq status` and `wq results` read it, and a sweep survives the kill -9 of the
// master that holds the prefix's slot while its replica takes over.
// Where redis-server or redis-cli is missing the test is skipped with the reason, except under
// CI, where it fails: there a skip would hide a broken runner.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardServer } from '@weak-queens/dashboard';
import { createLogger, PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, KNOWN_S, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { FAST_STALLS, startWorker, stopWorkers, uniquePrefix, until } from './src/index.js';
import { RedisCluster, redisClusterUnavailable } from './src/redis-cluster.js';
import { runWq } from './src/wq-cli.js';

const unavailable = redisClusterUnavailable();
if (unavailable && process.env.CI) {
  throw new Error(`the Redis Cluster test cannot run on this CI runner: ${unavailable}`);
}

interface SumLine {
  readonly n: number;
  readonly S: string;
}

function sumLines(stdout: string): [number, string][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SumLine)
    .map((l) => [l.n, l.S]);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

describe.skipIf(unavailable !== undefined)('when the pipeline runs on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let workers: ChildProcess[] = [];

  beforeAll(async () => {
    cluster = await RedisCluster.start({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 2000 });
  }, 90_000);

  afterAll(async () => {
    await stopWorkers(workers);
    await cluster?.stop();
  });

  /** The user's environment: no REDIS_URL, the cluster's nodes and a hash-tagged prefix. */
  function clusterEnv(prefix: string): { url: string; prefix: string } & Record<string, string> {
    return { url: '', prefix, REDIS_CLUSTER_NODES: cluster.seeds };
  }

  function startWorkers(prefix: string): void {
    workers = [0, 1].map(() =>
      startWorker({
        url: '',
        prefix,
        env: { ...FAST_STALLS, REDIS_CLUSTER_NODES: cluster.seeds },
      }),
    );
  }

  it('sweeps n = 1..12 exactly, and wq status, wq results and the dashboard read it back', async () => {
    const prefix = uniquePrefix('cluster');
    const env = clusterEnv(prefix);
    startWorkers(prefix);
    try {
      const run = await runWq(['sweep', '1-12', '--wait', '--json'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(sumLines(run.stdout)).toEqual(range(1, 12).map((n) => [n, KNOWN_S[n - 1]]));

      const results = await runWq(['results', '1-12', '--json'], env);
      expect(results.code, results.stderr).toBe(0);
      const lines = results.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as SumLine & { N: (string | null)[] });
      expect(lines.map((l) => [l.n, l.S])).toEqual(range(1, 12).map((n) => [n, KNOWN_S[n - 1]]));
      for (const line of lines) {
        const total = line.N.reduce((t, v) => t + BigInt(v ?? 'x'), 0n);
        expect(String(total), `Σ_D N(${line.n}, D)`).toBe(line.S);
      }

      const status = await runWq(['status', '--json'], env);
      expect(status.code, status.stderr).toBe(0);
      const report = JSON.parse(status.stdout) as {
        sweeps: { done: number; total: number; sizes: { n: number; S?: string }[] }[];
        workers: unknown[];
      };
      expect(report.sweeps.map((s) => [s.done, s.total])).toEqual([[12, 12]]);
      expect(report.sweeps[0]?.sizes.map((s) => [s.n, s.S])).toEqual(
        range(1, 12).map((n) => [n, KNOWN_S[n - 1]]),
      );
      expect(report.workers).toHaveLength(2);

      // The dashboard, on the same cluster: its results, sweeps and metrics.
      const dashboard = createDashboardServer({
        config: compileConfig({ REDIS_CLUSTER_NODES: cluster.seeds, WQ_PREFIX: prefix }),
        logger: createLogger({ level: 'silent', pretty: false }),
        port: 0,
        pollMs: 500,
      });
      try {
        const base = await dashboard.listen(0, '127.0.0.1');
        const api = await fetch(new URL('api/results', base));
        expect(api.status).toBe(200);
        const shown = (await api.json()) as SumLine[];
        expect(shown.map((l) => [l.n, l.S])).toEqual(range(1, 12).map((n) => [n, KNOWN_S[n - 1]]));
        const sweeps = await fetch(new URL('api/sweeps', base));
        expect(sweeps.status).toBe(200);
        const listed = (await sweeps.json()) as { sweeps: { done: number; total: number }[] };
        expect(listed.sweeps.map((s) => [s.done, s.total])).toEqual([[12, 12]]);
        const metrics = await fetch(new URL('metrics', base));
        expect(metrics.status).toBe(200);
        expect(await metrics.text()).toMatch(
          new RegExp(
            `^bullmq_job_count\\{queue="${QUEUE_NAMES.count}", state="completed"\\} \\d+`,
            'm',
          ),
        );
      } finally {
        await dashboard.close();
      }
    } finally {
      await stopWorkers(workers);
    }
  });

  it('completes a sweep exactly when the master of its slot is killed and a replica takes over', async () => {
    const prefix = uniquePrefix('failover');
    const env = clusterEnv(prefix);
    startWorkers(prefix);
    try {
      const follower = runWq(['sweep', '1-16', '--wait', '--json'], env);
      let followerEnded = false;
      void follower.then(() => (followerEnded = true));
      const watcher = new PipelineClient(
        compileConfig({ REDIS_CLUSTER_NODES: cluster.seeds, WQ_PREFIX: prefix }),
      );
      try {
        await until(
          'part of n = 16 to be stored',
          async () => {
            // n = 16 (about 25 core-seconds, ten or more on two workers; n = 15 now takes one or
            // two), so that the sweep is still running when the master dies, on a quiet machine too.
            let n16 = 0;
            for (let d = 0; d < 16; d++) n16 += await watcher.store.unitCount(16, d);
            return n16 >= 2;
          },
          120_000,
          100,
        );
      } finally {
        await watcher.close();
      }
      const master = await cluster.masterOf(`${prefix}:results:S`);
      // A replica ready to take over: it holds everything written so far (replication is
      // asynchronous; one lagging behind would lose the newest writes, as a real one would).
      expect(await cluster.syncReplica(master, `${prefix}:replica-sync`)).toBe(1);
      await cluster.kill(master);
      // Mid-sweep: n = 16 was not finished when its master died.
      expect(followerEnded).toBe(false);
      // A replica is promoted: the slot is served by another process.
      await until('a replica to take over', async () => {
        const now = await cluster.masterOf(`${prefix}:results:S`).catch(() => master);
        return now.port !== master.port;
      });

      const run = await follower;
      expect(run.code, run.stderr).toBe(0);
      expect(sumLines(run.stdout)).toEqual(range(1, 16).map((n) => [n, KNOWN_S[n - 1]]));
      expect(workers.every((w) => w.exitCode === null && w.signalCode === null)).toBe(true);

      const results = await runWq(['results', '1-16', '--json'], env);
      expect(results.code, results.stderr).toBe(0);
      expect(sumLines(results.stdout)).toEqual(range(1, 16).map((n) => [n, KNOWN_S[n - 1]]));
    } finally {
      await stopWorkers(workers);
    }
  }, 300_000);
});

describe.skipIf(unavailable !== undefined)('when the Redis Cluster asks for a password', () => {
  const password = 'cluster-secret';
  let cluster: RedisCluster;
  let workers: ChildProcess[] = [];

  beforeAll(async () => {
    cluster = await RedisCluster.start({ masters: 3, replicasPerMaster: 0, password });
  }, 90_000);

  afterAll(async () => {
    await stopWorkers(workers);
    await cluster?.stop();
  });

  it('takes the password from REDIS_URL, sweeps exactly, and names a wrong one (exit 2)', async () => {
    const prefix = uniquePrefix('cluster-auth');
    const seed = cluster.nodes[0]?.port ?? 0;
    const env = (secret: string) => ({
      url: `redis://:${secret}@127.0.0.1:${seed}`,
      prefix,
      REDIS_CLUSTER_NODES: cluster.seeds,
    });
    workers = [startWorker({ ...env(password), env: { REDIS_CLUSTER_NODES: cluster.seeds } })];
    const sweep = await runWq(['sweep', '1-10', '--wait', '--json'], env(password));
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(range(1, 10).map((n) => [n, KNOWN_S[n - 1]]));

    const wrong = await runWq(['status'], env('not-it'));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('expected a user and password this Redis accepts (WRONGPASS');
    const none = await runWq(['status'], { ...env(password), url: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('(NOAUTH Authentication required.)');
  }, 120_000);
});
