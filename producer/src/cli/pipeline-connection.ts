// Commands that talk to Redis load the pipeline client (and BullMQ with it) only when they run,
// so `wq compute`, `wq boards` and every `--help` start without paying for it. Redis is probed
// first: a few tries with one line per change of what is wrong, then a clear error, instead of
// BullMQ's endless reconnects (a CLI must end) or a silent database 0.
import type { PipelineClient, RedisUnavailableError } from '@weak-queens/shared/client';
import { compileConfig, type WqConfig } from '@weak-queens/shared/contracts';

/** Probes before a command gives up on Redis: about 4 s of pauses in all. */
const REDIS_ATTEMPTS = 5;

export async function openPipelineClient(
  config: WqConfig,
  command: string,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<PipelineClient> {
  const { PipelineClient: Client, waitForRedis } = await import('@weak-queens/shared/client');
  let shown: string | undefined;
  await waitForRedis(config, {
    attempts: REDIS_ATTEMPTS,
    onRetry: (err: RedisUnavailableError) => {
      if (err.message === shown) return;
      shown = err.message;
      stderr.write(
        `wq ${command}: ${err.message}; trying again (${REDIS_ATTEMPTS} attempts in all)\n`,
      );
    },
  });
  if (shown !== undefined) stderr.write(`wq ${command}: Redis at ${config.redisUrl} answers now\n`);
  return new Client(config);
}

/** Runs `work` with a client opened for `command` (from the environment), closed after. */
export async function withPipelineClient<T>(
  command: string,
  work: (client: PipelineClient) => Promise<T>,
): Promise<T> {
  const client = await openPipelineClient(compileConfig(), command);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
