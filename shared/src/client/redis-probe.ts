// Whether the Redis that REDIS_URL names can be used: reachable, speaking the Redis protocol, and
// holding the database the URL asks for. Left to itself ioredis reconnects forever to a port that
// is not Redis, and when SELECT fails it only emits an event and carries on in database 0.
import type { Redis } from 'ioredis';
import { ioredis } from './redis-libraries.js';
import { InvalidInputError } from '../kernel/errors.js';
import {
  isTransientReply,
  RedisDiskError,
  RedisEvictionPolicyError,
  RedisReadOnlyError,
  RedisUnavailableError,
  redisRefusalOf,
} from '../contracts/redis-errors.js';
import type { ClusterNode, WqConfig } from '../contracts/config.js';
import { clusterOptions, isConnectionError, redisOptions } from './connection.js';

// The error types live with the other Redis errors (contracts); re-exported where they always were.
export { RedisUnavailableError, type RedisProblem } from '../contracts/redis-errors.js';

/**
 * Connects once (no reconnects), pings and selects the database. Resolves when Redis is usable;
 * throws RedisUnavailableError when it may be later, InvalidInputError when REDIS_URL itself is
 * wrong (a database the server does not have, a refused password), RedisEvictionPolicyError when
 * the server would evict keys, RedisReadOnlyError when it is a read-only replica.
 */
export async function probeRedis(
  config: WqConfig,
  timeoutMs = 3000,
): Promise<RedisDiskError | undefined> {
  if (config.clusterNodes !== undefined) {
    await probeCluster(config, timeoutMs);
    return undefined;
  }
  return probeNode(config, undefined, timeoutMs);
}

/** One connection to REDIS_URL's server, or to `node` of a cluster (which has only database 0). */
async function probeNode(
  config: WqConfig,
  node: ClusterNode | undefined,
  timeoutMs: number,
): Promise<RedisDiskError | undefined> {
  const db = node === undefined ? config.redis.db : 0;
  const redis = new ioredis.Redis({
    ...redisOptions(config, 'producer'),
    ...(node === undefined ? {} : { host: node.host, port: node.port }),
    // Selected by hand below, so that a refusal is an answer and not a silent database 0.
    db: 0,
    // PING is the first and only command written: a server that is not Redis answers it (a
    // protocol error) before it can close the socket on a second one (EPIPE, which says less).
    connectionName: undefined,
    disableClientInfo: true,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  // Every error of this one connection: a server that is not Redis may close the socket while
  // ioredis still writes (EPIPE), and what it answered (a protocol error) is the telling one.
  const seen: unknown[] = [];
  redis.on('error', (err: Error) => seen.push(err));
  try {
    await redis.connect();
    const disk = await pingOrDiskRefusal(redis, `${config.prefix}:probe`);
    if (db !== 0) await selectDatabase(redis, config);
    await refuseEviction(redis, config);
    return disk;
  } catch (err) {
    if (isSetupError(err)) throw err;
    throw probeFailure(config, seen, err, 'first seen');
  } finally {
    redis.disconnect();
  }
}

/**
 * PING, which a Redis that cannot write to its disk refuses (MISCONF) though it serves reads:
 * then a read answers for it, and the refusal is returned, for the caller to say once.
 */
async function pingOrDiskRefusal(redis: Redis, key: string): Promise<RedisDiskError | undefined> {
  try {
    await redis.ping();
    return undefined;
  } catch (err) {
    const refusal = redisRefusalOf(err);
    if (!(refusal instanceof RedisDiskError)) throw err;
    await redis.exists(key);
    return refusal;
  }
}

/**
 * A cluster is usable when it says so (`cluster_state:ok`: every slot served) and the master of
 * the prefix's slot, where every key of the pipeline lives, answers a read. A cluster has only
 * database 0, so there is nothing to select.
 */
async function probeCluster(config: WqConfig, timeoutMs: number): Promise<void> {
  const options = clusterOptions(config, 'producer');
  const cluster = new ioredis.Cluster(
    (config.clusterNodes ?? []).map(({ host, port }) => ({ host, port })),
    {
      ...options,
      redisOptions: {
        ...options.redisOptions,
        connectionName: undefined,
        disableClientInfo: true,
        connectTimeout: timeoutMs,
        commandTimeout: timeoutMs,
        maxRetriesPerRequest: 0,
      },
      lazyConnect: true,
      clusterRetryStrategy: () => null,
      enableOfflineQueue: false,
      maxRedirections: 3,
      slotsRefreshTimeout: timeoutMs,
      slotsRefreshInterval: 0,
    },
  );
  const seen: unknown[] = [];
  cluster.on('error', (err: Error) => seen.push(err));
  try {
    await cluster.connect();
    const info = String(await cluster.call('CLUSTER', 'INFO'));
    const state = /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
    if (state !== 'ok') throw new Error(`CLUSTERDOWN cluster_state:${state}`);
    await cluster.exists(`${config.prefix}:probe`);
    for (const node of cluster.nodes('master')) await refuseEviction(node, config);
  } catch (err) {
    if (isSetupError(err)) throw err;
    const failure = probeFailure(config, seen, err, 'thrown');
    if (failure instanceof InvalidInputError) throw failure;
    throw (await setupErrorOfNodes(config, timeoutMs)) ?? failure;
  } finally {
    cluster.disconnect();
  }
}

/**
 * A setup error (a certificate that does not verify) one of the listed nodes answers when asked
 * alone, or undefined. The cluster client cannot say: it reads the slot map over a connection
 * whose errors it drops, and reports only "Connection is closed".
 */
async function setupErrorOfNodes(
  config: WqConfig,
  timeoutMs: number,
): Promise<InvalidInputError | undefined> {
  const outcomes = await Promise.allSettled(
    (config.clusterNodes ?? []).map((node) => probeNode(config, node, timeoutMs)),
  );
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected' && outcome.reason instanceof InvalidInputError) {
      return outcome.reason;
    }
  }
  return undefined;
}

/**
 * The one error a failed probe reports, from the errors its client emitted (`seen`) and the one
 * it threw: bad credentials first, then an answer that was not Redis, then `otherwise`'s pick.
 */
function probeFailure(
  config: WqConfig,
  seen: readonly unknown[],
  thrown: unknown,
  otherwise: 'first seen' | 'thrown',
): Error {
  // A cluster client says only "None of startup nodes is available"; why (WRONGPASS, NOAUTH)
  // is in the error of the last node it tried.
  const causes = [...seen, thrown].flatMap((e) => {
    const last = (e as { lastNodeError?: unknown } | null)?.lastNodeError;
    return last === undefined ? [e] : [last, e];
  });
  const errors = causes.map((e) => classify(config, e));
  return (
    errors.find((e) => e instanceof InvalidInputError) ??
    errors.find((e) => e instanceof RedisUnavailableError && e.problem === 'not-redis') ??
    (otherwise === 'first seen' ? errors[0] : undefined) ??
    classify(config, thrown)
  );
}

/** An answer that no retry changes: REDIS_URL or the server's settings must. */
function isSetupError(err: unknown): boolean {
  return (
    err instanceof InvalidInputError ||
    err instanceof RedisEvictionPolicyError ||
    err instanceof RedisReadOnlyError
  );
}

/**
 * Throws RedisEvictionPolicyError when the server may evict keys: an evicted job, lock or
 * result is lost without a word, and BullMQ's scripts then fail in a loop. Managed Redis may
 * refuse CONFIG: INFO says the same; when neither answers, we cannot know and carry on.
 */
async function refuseEviction(redis: Redis, config: WqConfig): Promise<void> {
  const policy = await evictionPolicy(redis);
  if (policy !== undefined && policy !== 'noeviction') {
    throw new RedisEvictionPolicyError(config.redisUrl, policy);
  }
  // A replica answers reads, so the probe would pass and the first write fail: say it now.
  const replication = await redis.info('replication').catch(() => '');
  if (/^role:slave\b/m.test(replication) && !/^slave_read_only:0\b/m.test(replication)) {
    throw new RedisReadOnlyError(`${config.redisUrl} is a replica`);
  }
}

/** The server's maxmemory-policy, or undefined when it will not say. */
export async function evictionPolicy(redis: Redis): Promise<string | undefined> {
  const fromConfig = await redis
    .call('CONFIG', 'GET', 'maxmemory-policy')
    .then((reply) => (Array.isArray(reply) ? String(reply[1] ?? '') : ''))
    .catch(() => '');
  if (fromConfig) return fromConfig;
  const info = await redis.info('memory').catch(() => '');
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

async function selectDatabase(redis: Redis, config: WqConfig): Promise<void> {
  const { db } = config.redis;
  try {
    await redis.select(db);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (!/DB index is out of range|invalid DB index|SELECT is not allowed/i.test(message))
      throw err;
    // CONFIG may be disabled (managed Redis): then the error just cannot say how many there are.
    const count = await redis
      .call('CONFIG', 'GET', 'databases')
      .then((reply) => Number((reply as string[])[1]))
      .catch(() => NaN);
    throw new InvalidInputError(
      'REDIS_URL database',
      String(db),
      Number.isInteger(count) && count > 0
        ? `a database this server has, /0 to /${count - 1}`
        : `a database this server has (it refused /${db}: ${message})`,
    );
  }
}

function classify(config: WqConfig, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (/NOAUTH|WRONGPASS|invalid password|invalid username|Authentication required/i.test(message)) {
    return new InvalidInputError(
      'REDIS_URL',
      config.redisUrl,
      `a user and password this Redis accepts (${message.split('\n')[0] ?? message})`,
    );
  }
  // A certificate that does not verify stays so until someone changes the setup: no retry.
  const certificate = certificateProblem(code, message);
  if (certificate !== undefined)
    return new InvalidInputError('REDIS_URL', config.redisUrl, certificate);
  const url = config.redisUrl;
  const first = (message.split('\n')[0] ?? message).slice(0, 200);
  if ((err as Error | null)?.name === 'ParserError' || /Protocol error/i.test(message)) {
    return new RedisUnavailableError(url, 'not-redis', first);
  }
  if (/\bLOADING\b/.test(message)) return new RedisUnavailableError(url, 'loading', first);
  // A cluster still electing a master for some slots, or not yet formed; a slot migrating; a
  // replica without its master: each passes as an outage does.
  if (
    isTransientReply(err) ||
    /Failed to refresh slots cache|None of startup nodes/i.test(message)
  ) {
    return new RedisUnavailableError(url, 'unreachable', first);
  }
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) {
    return new RedisUnavailableError(url, 'timeout', first);
  }
  if (isConnectionError(err) || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new RedisUnavailableError(url, 'unreachable', first);
  }
  return new RedisUnavailableError(url, 'other', first);
}

/** OpenSSL's verdicts (Node's `code`) on a chain that leads to no CA this client trusts. */
const UNTRUSTED_ISSUER = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);
/** OpenSSL's other verdicts on a certificate itself: its dates, signature, purpose. */
const INVALID_CERTIFICATE = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'CERT_CHAIN_TOO_LONG',
  'PATH_LENGTH_EXCEEDED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
]);

/**
 * What a rediss:// connection needs when Redis's TLS certificate failed verification (the
 * `expected` of an InvalidInputError), or undefined for any other error.
 */
function certificateProblem(code: string | undefined, message: string): string | undefined {
  const first = (message.split('\n')[0] ?? message).slice(0, 200);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `a host name that Redis's TLS certificate names (${first})`;
  }
  if (code !== undefined && UNTRUSTED_ISSUER.has(code)) {
    return (
      `a Redis whose TLS certificate this client trusts (${first}; ` +
      'a private CA is trusted with NODE_EXTRA_CA_CERTS=<its certificate file>)'
    );
  }
  if (code !== undefined && INVALID_CERTIFICATE.has(code)) {
    return `a Redis whose TLS certificate is valid (${first})`;
  }
  return undefined;
}

export interface WaitForRedisOptions {
  /** Probes before giving up (default: no limit); with `outageMs`, outages do not count. */
  readonly attempts?: number;
  /**
   * How long Redis may be away (unreachable, not answering, loading its data) before the wait
   * gives up, as WQ_REDIS_OUTAGE_MS bounds an outage met later; `attempts` then counts only the
   * other failures (something that is not Redis answers), which waiting does not mend.
   */
  readonly outageMs?: number;
  /** Pause after the k-th failed probe (k from 1); default 250 ms doubling up to 5 s. */
  readonly delayMs?: (attempt: number) => number;
  /** Called after each failed probe that will be retried, with the pause before the next. */
  readonly onRetry?: (err: RedisUnavailableError, attempt: number, delayMs: number) => void;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Probes until Redis is usable. A wrong REDIS_URL (InvalidInputError) is thrown at once; an
 * unavailable Redis is retried, and thrown after the last attempt. A Redis that serves reads but
 * cannot write to its disk is usable for reading: its refusal is returned, for the caller to say.
 */
export async function waitForRedis(
  config: WqConfig,
  options: WaitForRedisOptions = {},
): Promise<RedisDiskError | undefined> {
  const attempts = options.attempts ?? Infinity;
  const delayMs = options.delayMs ?? ((k: number) => Math.min(250 * 2 ** (k - 1), 5000));
  const started = Date.now();
  // Failures that count against `attempts`, and when the current outage began.
  let counted = 0;
  let outageSince: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await probeRedis(config, options.timeoutMs);
    } catch (err) {
      if (!(err instanceof RedisUnavailableError)) throw err;
      const now = Date.now();
      const ridden = options.outageMs !== undefined && isOutage(err);
      if (ridden) outageSince ??= now;
      else counted += 1;
      const outageLeft = ridden ? (outageSince ?? now) + (options.outageMs ?? 0) - now : Infinity;
      if (counted >= attempts || outageLeft <= 0 || options.signal?.aborted) {
        if (attempt === 1) throw err;
        const gaveUp = { attempts: attempt, ms: now - started };
        throw new RedisUnavailableError(err.url, err.problem, err.detail, gaveUp);
      }
      // The last pause ends with the bound, so the last probe is made as the bound runs out.
      const pause = Math.min(delayMs(attempt), outageLeft);
      options.onRetry?.(err, attempt, pause);
      await sleep(pause, options.signal);
    }
  }
}

/** Redis is away but may come back as it is (a restart, a failover, a load from disk). */
export function isOutage(err: RedisUnavailableError): boolean {
  return err.problem === 'unreachable' || err.problem === 'timeout' || err.problem === 'loading';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
