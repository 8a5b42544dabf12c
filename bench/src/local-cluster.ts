// A whole deployment on this machine for benchmarks: a private redis-server (AOF on, as in
// production) and k worker processes, each sampled for its peak resident memory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PipelineClient } from '@weak-queens/shared/client';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig } from '@weak-queens/shared/contracts';

export interface ClusterOptions {
  readonly workers: number;
  /** Units each worker process computes at once (1: one core per process). */
  readonly concurrency: number;
  readonly env?: Readonly<Record<string, string>>;
}

/** The environment of the bench's worker processes: one core each, the bench's key prefix. */
export function benchWorkerEnv(
  redisUrl: string,
  extra: Readonly<Record<string, string>> = {},
  concurrency = 1,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...extra,
    REDIS_URL: redisUrl,
    WQ_PREFIX: '{wq-bench}',
    WQ_CONCURRENCY: String(concurrency),
    LOG_LEVEL: 'warn',
  };
}

export class LocalCluster {
  private readonly peakKiB: number[];
  private readonly sampler: NodeJS.Timeout;

  private constructor(
    private readonly dir: string,
    private readonly server: RedisServer,
    private readonly workers: ChildProcess[],
    readonly client: PipelineClient,
  ) {
    this.peakKiB = workers.map(() => 0);
    this.sampler = setInterval(() => this.sample(), 200);
  }

  static async start(options: ClusterOptions): Promise<LocalCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'wq-bench-cluster-'));
    const server = await RedisServer.start({ dir: join(dir, 'redis') });
    const env = benchWorkerEnv(server.url, options.env, options.concurrency);
    const workers = Array.from({ length: options.workers }, () =>
      spawnWorkerProcess({ env, stdio: ['ignore', 'inherit', 'inherit'] }),
    );
    const client = new PipelineClient(compileConfig(env));
    const cluster = new LocalCluster(dir, server, workers, client);
    const deadline = Date.now() + 30_000;
    while ((await client.registry.liveWorkers()).length < options.workers) {
      if (Date.now() > deadline) {
        await cluster.stop();
        throw new Error(`${options.workers} workers did not start within 30 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return cluster;
  }

  /** Submits a sweep and waits until every S(n) is stored: the user's wall time. */
  async sweep(
    ns: readonly number[],
    options: Parameters<PipelineClient['submit']>[1] = {},
  ): Promise<{ seconds: number; S: Map<number, string> }> {
    const started = performance.now();
    const submission = await this.client.submit(ns, options);
    await this.client.waitFor(submission.sweep.id, { intervalMs: 50 });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, S: await this.client.store.sums(ns) };
  }

  /** The private redis-server's URL (for INFO and raw reads). */
  get redisUrl(): string {
    return this.server.url;
  }

  /** Peak resident memory of each worker process so far, in MiB. */
  peakRssMiB(): number[] {
    this.sample();
    return this.peakKiB.map((kib) => kib / 1024);
  }

  private sample(): void {
    this.workers.forEach((worker, i) => {
      try {
        const status = readFileSync(`/proc/${worker.pid}/status`, 'utf8');
        const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
        this.peakKiB[i] = Math.max(this.peakKiB[i] ?? 0, kib);
      } catch {
        // exited
      }
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.sampler);
    await this.client.close();
    for (const worker of this.workers) if (worker.exitCode === null) worker.kill('SIGTERM');
    await Promise.all(this.workers.map(exitOf));
    await this.server.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
