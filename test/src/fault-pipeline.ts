// The pipeline a fault test drives: its own key prefix, a client, the `count` queue (to watch
// and poke jobs), and workers started with fast stall detection, all closed by `close()`.
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, QUEUE_NAMES } from '@weak-queens/shared/contracts';
import { deletePrefix, uniquePrefix } from './test-redis.js';
import { FAST_STALLS, startWorker } from './worker-processes.js';

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
