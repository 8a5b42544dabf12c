// The set-up most end-to-end tests share: one Redis per test file and, per test, pipelines on
// their own key prefixes (a client and worker processes), all stopped and deleted after the test.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig } from '@weak-queens/shared/contracts';
import { deletePrefix, startTestRedis, type TestRedis, uniquePrefix } from './test-redis.js';
import { startWorker, stopWorkers, type TestWorkerOptions } from './worker-processes.js';

export type PipelineWorkerOptions = Omit<TestWorkerOptions, 'url' | 'prefix'>;

export interface OpenPipelineOptions {
  /** Worker processes to start at once (more with `startWorkers`). */
  readonly workers?: number;
  /** Extra config for the client (WQ_… variables). */
  readonly env?: Record<string, string>;
}

export interface TestPipeline {
  readonly url: string;
  readonly prefix: string;
  readonly client: PipelineClient;
  /** Every worker started on this pipeline; each is stopped after the test. */
  readonly workers: ChildProcess[];
  startWorker(options?: PipelineWorkerOptions): ChildProcess;
  startWorkers(count: number, options?: PipelineWorkerOptions): ChildProcess[];
  /** Runs after the test, once the workers have stopped and before the client closes. */
  defer(cleanup: () => unknown): void;
}

export interface PipelineFixtureOptions {
  /**
   * `each` (the default): pipelines close after the test that opened them. `all`: they serve
   * every test of the file or describe (open them in beforeAll) and close after the last.
   */
  readonly closeAfter?: 'each' | 'all';
}

export interface PipelineFixture {
  /** The file's Redis URL (once beforeAll has run). */
  readonly url: string;
  openPipeline(label: string, options?: OpenPipelineOptions): TestPipeline;
}

/** Registers the hooks; call once at the top of a test file (or of a describe). */
export function pipelineFixture(options: PipelineFixtureOptions = {}): PipelineFixture {
  let redis: TestRedis | undefined;
  const open: { pipeline: TestPipeline; cleanups: (() => unknown)[] }[] = [];
  const closeAll = async (): Promise<void> => {
    for (const { pipeline, cleanups } of open.splice(0)) {
      await stopWorkers(pipeline.workers);
      for (const cleanup of cleanups) await cleanup();
      await pipeline.client.close();
      await deletePrefix(pipeline.url, pipeline.prefix);
    }
  };
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await closeAll();
    await redis?.stop();
  });
  if (options.closeAfter !== 'all') afterEach(closeAll);
  const url = (): string => {
    if (!redis) throw new Error('the test Redis is not started yet (use it inside a test)');
    return redis.url;
  };
  return {
    get url() {
      return url();
    },
    openPipeline(label, options = {}) {
      const prefix = uniquePrefix(label);
      const cleanups: (() => unknown)[] = [];
      const workers: ChildProcess[] = [];
      const config = compileConfig({ REDIS_URL: url(), WQ_PREFIX: prefix, ...options.env });
      const pipeline: TestPipeline = {
        url: url(),
        prefix,
        client: new PipelineClient(config),
        workers,
        startWorker(workerOptions = {}) {
          const worker = startWorker({ url: url(), prefix, ...workerOptions });
          workers.push(worker);
          return worker;
        },
        startWorkers(count, workerOptions = {}) {
          return Array.from({ length: count }, () => pipeline.startWorker(workerOptions));
        },
        defer: (cleanup) => cleanups.push(cleanup),
      };
      open.push({ pipeline, cleanups });
      pipeline.startWorkers(options.workers ?? 0);
      return pipeline;
    },
  };
}
