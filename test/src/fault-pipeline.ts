// The pipeline a fault test drives: its own key prefix, a client, the `count` queue (to watch
// and poke jobs), and workers started with fast stall detection, all closed by `close()`.
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { afterEach } from 'vitest';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { pipelineFixture } from './pipeline-fixture.js';
import { deletePrefix, uniquePrefix } from './test-redis.js';
import { FAST_STALLS, startWorker, stopWorkers } from './worker-processes.js';

export interface FaultPipeline {
  readonly prefix: string;
  readonly client: PipelineClient;
  readonly count: Queue;
  /** Starts one more worker process; the caller's `workers` list tracks it for cleanup. */
  readonly spawn: () => ChildProcess;
  readonly close: () => Promise<void>;
}

export function openFaultPipeline(
  redisUrl: string,
  label: string,
  workers: ChildProcess[],
): FaultPipeline {
  const prefix = uniquePrefix(label);
  const client = new PipelineClient(compileConfig({ REDIS_URL: redisUrl, WQ_PREFIX: prefix }));
  const count = new Queue(QUEUE_NAMES.count, { connection: { url: redisUrl }, prefix });
  return {
    prefix,
    client,
    count,
    spawn: () => {
      const worker = startWorker({ url: redisUrl, prefix, env: { ...FAST_STALLS } });
      workers.push(worker);
      return worker;
    },
    close: async () => {
      await count.close();
      await client.close();
      await deletePrefix(redisUrl, prefix);
    },
  };
}

export interface FaultPipelineFixture {
  /** The file's Redis URL (once beforeAll has run). */
  readonly url: string;
  /** Every worker the tests start; all are stopped after each test. */
  readonly workers: ChildProcess[];
  pipeline(label: string): FaultPipeline;
  /** Runs after the test, once its workers have stopped. */
  defer(cleanup: () => Promise<void>): void;
}

/**
 * Registers the hooks of a fault test file: one Redis for the file and, after each test, its
 * workers stopped (a frozen one woken first, so SIGTERM can reach it) and its pipelines closed.
 */
export function faultPipelineFixture(): FaultPipelineFixture {
  const redis = pipelineFixture();
  const workers: ChildProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const w of workers) if (w.signalCode === 'SIGSTOP') w.kill('SIGCONT');
    await stopWorkers(workers.splice(0));
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return {
    get url() {
      return redis.url;
    },
    workers,
    pipeline(label) {
      const opened = openFaultPipeline(redis.url, label, workers);
      cleanups.push(() => opened.close());
      return opened;
    },
    defer: (cleanup) => cleanups.push(cleanup),
  };
}
