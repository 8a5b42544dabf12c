// Commands that talk to Redis load the pipeline client (and BullMQ with it) only when they run,
// so `wq compute`, `wq boards` and every `--help` start without paying for it. Redis is probed
// first. A Redis that is away (restarting, failing over, loading its data) is waited for as an
// outage met later is ridden out, up to WQ_REDIS_OUTAGE_MS, saying so once; something that
// answers but is not Redis gets a few tries with one line per change of what is wrong. Then a
// clear error, instead of BullMQ's endless reconnects (a CLI must end) or a silent database 0.
import type { PipelineClient, RedisUnavailableError } from '@weak-queens/shared/client';
import { compileConfig, type WqConfig } from '@weak-queens/shared/contracts';

/** Probes before a command gives up on what is not an outage: about 4 s of pauses in all. */
const REDIS_ATTEMPTS = 5;

export interface OpenOptions {
  readonly stderr?: NodeJS.WritableStream;
  /**
   * False for a command that can do without Redis (`wq plan --workers k` only misses the
   * calibration): it does not wait out an outage, it tries a few times.
   */
  readonly waitOutOutage?: boolean;
}

export async function openPipelineClient(
  config: WqConfig,
  command: string,
  options: OpenOptions = {},
): Promise<PipelineClient> {
  const {
    PipelineClient: Client,
    isOutage,
    waitForRedis,
  } = await import('@weak-queens/shared/client');
  const stderr = options.stderr ?? process.stderr;
  const outageMs = options.waitOutOutage === false ? undefined : config.redisOutageMs;
  let shown: string | undefined;
  const disk = await waitForRedis(config, {
    attempts: REDIS_ATTEMPTS,
    ...(outageMs === undefined ? {} : { outageMs }),
    onRetry: (err: RedisUnavailableError) => {
      const outage = outageMs !== undefined && isOutage(err);
      // One line per kind of wait: an outage whose cause changes (refused, then loading) is
      // still the one outage.
      const kind = outage ? 'outage' : err.message;
      if (kind === shown) return;
      shown = kind;
      stderr.write(
        outage
          ? waitingLine(command, err, outageMs)
          : `wq ${command}: ${err.message}; trying again (${REDIS_ATTEMPTS} attempts in all)\n`,
      );
    },
  });
  if (shown !== undefined) stderr.write(`wq ${command}: Redis at ${config.redisUrl} answers now\n`);
  // Reads work while Redis cannot write to its disk; a write says so then, naming the disk.
  if (disk) stderr.write(`wq ${command}: ${disk.message} (reading works meanwhile)\n`);
  return new Client(config);
}

/** The one line said when a command starts while Redis is away. */
function waitingLine(command: string, err: RedisUnavailableError, outageMs: number): string {
  const cause = err.message.slice(`Redis at ${err.url}: `.length);
  return (
    `wq ${command}: waiting for Redis at ${err.url}, at most ${Math.round(outageMs / 1000)} s ` +
    `(WQ_REDIS_OUTAGE_MS): it ${cause}\n`
  );
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
