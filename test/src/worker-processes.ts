// Real worker processes for cross-process tests, started the way `wq worker` starts them.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';

export interface TestWorkerOptions {
  readonly url: string;
  readonly prefix: string;
  readonly concurrency?: number;
  readonly env?: Record<string, string>;
  /** Receives each JSON log line (at LOG_LEVEL info unless env says otherwise) instead of stderr. */
  readonly onLog?: (entry: Record<string, unknown>) => void;
}

export function startWorker(options: TestWorkerOptions): ChildProcess {
  const { onLog } = options;
  const child = spawnWorkerProcess({
    env: {
      ...process.env,
      REDIS_URL: options.url,
      WQ_PREFIX: options.prefix,
      WQ_CONCURRENCY: String(options.concurrency ?? 1),
      LOG_LEVEL: onLog ? 'info' : (process.env.LOG_LEVEL ?? 'warn'),
      ...options.env,
    },
    stdio: ['ignore', 'inherit', onLog ? 'pipe' : 'inherit'],
  });
  if (onLog && child.stderr) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      try {
        onLog(JSON.parse(line) as Record<string, unknown>);
      } catch {
        process.stderr.write(`${line}\n`);
      }
    });
  }
  return child;
}

/** SIGTERM every worker still running and wait for them to exit. */
export async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
  await Promise.all(workers.map(exitOf));
}

/**
 * Short locks and frequent stall checks, so a killed worker's units are re-run within about
 * three seconds instead of a minute (production keeps BullMQ's 30 s defaults).
 */
export const FAST_STALLS: Readonly<Record<string, string>> = {
  WQ_LOCK_MS: '2000',
  WQ_STALLED_INTERVAL_MS: '500',
};

/** kill -9: the worker gets no chance to hand anything back. Resolves once it has exited. */
export async function killHard(worker: ChildProcess): Promise<void> {
  if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await exitOf(worker);
}

/** The pid in a BullMQ `processedBy` name (worker ids are `<host>-<pid>`). */
export function pidOfWorkerName(name: string | undefined): number | undefined {
  const match = /-(\d+)$/.exec(name ?? '');
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
