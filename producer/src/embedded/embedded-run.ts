// `npm start`: the whole pipeline on one machine. A private redis-server (AOF under ./.data/)
// unless REDIS_URL is set, one worker process per core, a sweep, the results table, and a
// clean shutdown of everything, Ctrl-C included. On a terminal the dashboard and the idle
// workers stay up after the sweep, for sweeps started from its form, until Ctrl-C.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { compileConfig } from '@weak-queens/shared/contracts';
import { isOutage, type Logger, waitForRedis } from '@weak-queens/shared/client';
import { InterruptedError, RedisServer } from '@weak-queens/shared/process';
import { followSweep, submitSweep } from '../cli/follow.js';
import { PipelineClient } from '@weak-queens/shared/client';
import { startEmbeddedDashboard } from './dashboard-process.js';
import { DataDirLock } from './data-lock.js';
import { dismissReaper, spawnRedisReaper } from './redis-reaper.js';
import { exitOf, spawnWorkerProcess } from './worker-process.js';

export interface EmbeddedOptions {
  readonly ns: readonly number[];
  readonly workers?: number;
  readonly json?: boolean;
  /** Default ./.data (Redis AOF in ./.data/redis). */
  readonly dataDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** Aborted on Ctrl-C / SIGTERM: stop following and shut down. */
  readonly signal?: AbortSignal;
  /** After the sweep, keep the dashboard and workers up until `signal` aborts (see staysUp). */
  readonly stayUp?: boolean;
  /** Where the person at the keyboard reads "dashboard at …" (default stderr). */
  readonly stderr?: NodeJS.WritableStream;
}

export async function runEmbedded(options: EmbeddedOptions): Promise<number> {
  const env = options.env ?? process.env;
  const { logger } = options;
  let server: RedisServer | undefined;
  let reaper: ChildProcess | undefined;
  const workers: ChildProcess[] = [];
  let client: PipelineClient | undefined;
  let dashboard: ChildProcess | undefined;
  let dashboardAt: string | undefined;
  let dashboardStarting: Promise<void> | undefined;
  const killAll = (): void => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    if (dashboard?.exitCode === null) dashboard.kill('SIGKILL');
  };
  let redisUrl = env.REDIS_URL;
  // A cluster (REDIS_CLUSTER_NODES) is used as given: no private server then. A REDIS_URL set
  // but blank is refused by compileConfig, not taken as a wish for a private server.
  const privateRedis = redisUrl === undefined && !env.REDIS_CLUSTER_NODES?.trim();
  const dataDir = resolve(options.dataDir ?? '.data');
  // Before anything starts: a run that finds ./.data held by another stops here, and says so.
  const lock = privateRedis
    ? DataDirLock.acquire(dataDir, (message) => logger.warn(message))
    : undefined;
  process.once('exit', killAll);
  try {
    if (lock) {
      server = await RedisServer.start({ dir: resolve(dataDir, 'redis') });
      if (server.pid !== undefined) {
        lock.recordRedis(server.pid);
        reaper = spawnRedisReaper(server.pid);
      }
      redisUrl = server.url;
      logger.info({ redis: redisUrl }, 'private redis-server started');
    }
    const config = compileConfig({ ...env, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) });
    // A REDIS_URL that is wrong ends the run with one clear error, before any worker starts
    // waiting for it; a Redis that is away (restarting, loading, failing over) is waited for up
    // to WQ_REDIS_OUTAGE_MS, as `wq` waits for it, with one line per kind of wait.
    let waitShown: string | undefined;
    await waitForRedis(config, {
      attempts: 5,
      outageMs: config.redisOutageMs,
      onRetry: (err) => {
        const kind = isOutage(err) ? 'outage' : err.message;
        if (kind === waitShown) return;
        waitShown = kind;
        logger.warn(
          { reason: err.message, atMostMs: config.redisOutageMs },
          isOutage(err) ? 'waiting for Redis (WQ_REDIS_OUTAGE_MS)' : 'waiting for Redis',
        );
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const count = options.workers ?? availableParallelism();
    const workerEnv = {
      ...env,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      WQ_CONCURRENCY: '1',
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    };
    for (let i = 0; i < count; i++) {
      workers.push(spawnWorkerProcess({ env: workerEnv, detached: true }));
    }
    logger.info({ workers: count }, 'worker processes started');
    // The dashboard starts alongside the sweep (it takes a few seconds to load).
    dashboardStarting = startEmbeddedDashboard({ ...workerEnv, LOG_LEVEL: 'warn' }).then(
      (started) => {
        if ('url' in started) {
          dashboard = started.child;
          dashboardAt = started.url;
          logger.info({ url: started.url }, `dashboard: ${started.url}`);
        } else {
          logger.warn({ reason: started.reason }, 'dashboard not started');
        }
      },
    );
    client = new PipelineClient(config);
    // The sweep and its results ride out a Redis restart, as the workers do.
    const context = {
      config,
      command: 'npm start',
      ...(options.stderr ? { stderr: options.stderr } : {}),
      ...(options.signal ? { stopping: options.signal } : {}),
    };
    const submission = await submitSweep(client, options.ns, {}, context);
    logger.info({ sweep: submission.sweep.id, jobs: submission.added }, 'sweep submitted');
    // Jobs an earlier run left queued (it was killed, or its machine went down) run as that run
    // planned them: said before their results, so nobody wonders why nothing was added.
    const resumed = submission.sizes.filter((s) => s.outcome === 'queued').map((s) => s.n);
    if (resumed.length > 0) {
      (options.stderr ?? process.stderr).write(
        `npm start: resuming n = ${resumed.join(', ')}, queued by an earlier run: its jobs run as planned then\n`,
      );
    }
    const aborted = new Promise<never>((_, reject) => {
      const abort = (): void => reject(new InterruptedError());
      if (options.signal?.aborted) abort();
      options.signal?.addEventListener('abort', abort, { once: true });
    });
    aborted.catch(() => undefined);
    await Promise.race([
      followSweep(client, submission.sweep.id, { json: options.json ?? false, ...context }),
      aborted,
    ]);
    await dashboardStarting;
    if (options.stayUp && dashboardAt !== undefined && dashboard?.exitCode === null) {
      (options.stderr ?? process.stderr).write(
        `sweep done; dashboard at ${dashboardAt}; workers idle, ready for sweeps from its form; Ctrl-C to stop\n`,
      );
      // Stopping here is what the line asked for, not an interruption of work: exit 0.
      await aborted.catch(() => undefined);
    }
    return 0;
  } finally {
    await client?.close();
    for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
    await dashboardStarting;
    if (dashboard?.exitCode === null) dashboard.kill('SIGTERM');
    await Promise.all([...workers, ...(dashboard ? [dashboard] : [])].map(exitOf));
    dismissReaper(reaper);
    await server?.stop();
    lock?.release();
    process.off('exit', killAll);
    logger.info('embedded pipeline stopped');
  }
}
