// Real worker processes for cross-process tests, started the way `wq worker` starts them.
import type { ChildProcess } from 'node:child_process';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';

export interface TestWorkerOptions {
  readonly url: string;
  readonly prefix: string;
  readonly concurrency?: number;
  readonly env?: Record<string, string>;
}

export function startWorker(options: TestWorkerOptions): ChildProcess {
  return spawnWorkerProcess({
    env: {
      ...process.env,
      REDIS_URL: options.url,
      WQ_PREFIX: options.prefix,
      WQ_CONCURRENCY: String(options.concurrency ?? 1),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** SIGTERM every worker still running and wait for them to exit. */
export async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
  await Promise.all(workers.map(exitOf));
}
