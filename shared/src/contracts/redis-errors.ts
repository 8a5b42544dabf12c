// Redis's errors, and its answers that are not results. Pure text matching on what ioredis
// reports, so every front end (CLI, dashboard, worker) can name the cause without loading a Redis
// client; the kernel, which knows nothing of Redis, holds the base classes.
import { WeakQueensError } from '../kernel/errors.js';

/** Why Redis cannot be used right now (each may pass: a restart, a failover, a cut link). */
export type RedisProblem = 'unreachable' | 'timeout' | 'not-redis' | 'loading' | 'other';

/** Redis cannot be used right now; trying again later may help. */
export class RedisUnavailableError extends WeakQueensError {
  readonly retryable = true;
  constructor(
    readonly url: string,
    readonly problem: RedisProblem,
    readonly detail: string,
    /** Set when a wait gave up: how many probes failed, over how long. */
    readonly gaveUp?: { readonly attempts: number; readonly ms: number },
  ) {
    super(
      (gaveUp
        ? `gave up after ${gaveUp.attempts} attempts in ${Math.round(gaveUp.ms / 1000)} s: `
        : '') + `Redis at ${url}: ${describeRedisProblem(problem, detail)}`,
    );
  }
}

function describeRedisProblem(problem: RedisProblem, detail: string): string {
  switch (problem) {
    case 'unreachable':
      return `cannot be reached (${detail})`;
    case 'timeout':
      return `did not answer in time (${detail})`;
    case 'not-redis':
      return 'something answers there, but not a Redis server (is REDIS_URL the right host and port?)';
    case 'loading':
      return 'is loading its data';
    case 'other':
      return `cannot be used (${detail})`;
  }
}

/**
 * Redis may evict keys (a maxmemory-policy other than noeviction): under memory pressure it
 * would silently drop queued jobs, locks and results. A setup error: the policy must change.
 */
export class RedisEvictionPolicyError extends WeakQueensError {
  readonly retryable = false;
  constructor(
    readonly url: string,
    readonly policy: string,
  ) {
    super(
      `Redis at ${url} evicts keys (maxmemory-policy ${policy}), which would drop queued jobs ` +
        'and results; run CONFIG SET maxmemory-policy noeviction (and set it in redis.conf)',
    );
  }
}

/**
 * Redis refused a write because it is at maxmemory (noeviction). Memory may be freed or
 * raised while we wait, so a retry can help.
 */
export class RedisOutOfMemoryError extends WeakQueensError {
  readonly retryable = true;
  constructor(readonly detail: string) {
    super(
      `Redis is out of memory and refuses writes (${detail}); raise its maxmemory ` +
        '(CONFIG SET maxmemory <bytes>) or free memory, then run the command again',
    );
  }
}

/**
 * Redis refused a write because it cannot write to its disk (MISCONF: its AOF or snapshot
 * failed, a full disk most often). Reads still work; writes pass once it can write again.
 */
export class RedisDiskError extends WeakQueensError {
  readonly retryable = true;
  constructor(readonly detail: string) {
    super(
      `Redis cannot write to its disk and refuses writes (${detail}); free space where Redis ` +
        'keeps its data (its dir, the AOF), then run the command again',
    );
  }
}

/** Redis refused a write because it is a read-only replica: REDIS_URL must name the master. */
export class RedisReadOnlyError extends WeakQueensError {
  readonly retryable = false;
  constructor(readonly detail: string) {
    super(
      `Redis is a read-only replica (${detail}); point REDIS_URL at its master ` +
        '(or run REPLICAOF NO ONE on it)',
    );
  }
}

/**
 * The Redis refusal behind `err`, named, or undefined. ioredis reports a refusal inside
 * MULTI only as `EXECABORT Transaction discarded…`, with the real answers in previousErrors;
 * a Lua script (BullMQ's commands) wraps it as `ERR … script …: OOM command not allowed…`.
 */
export function redisRefusalOf(
  err: unknown,
): RedisOutOfMemoryError | RedisDiskError | RedisReadOnlyError | undefined {
  if (
    err instanceof RedisOutOfMemoryError ||
    err instanceof RedisDiskError ||
    err instanceof RedisReadOnlyError
  ) {
    return err;
  }
  if (!(err instanceof Error)) return undefined;
  const causes: unknown[] = [
    err,
    ...((err as { previousErrors?: unknown[] }).previousErrors ?? []),
  ];
  for (const cause of causes) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/\bOOM command not allowed/.test(message)) {
      return new RedisOutOfMemoryError("OOM command not allowed when used memory > 'maxmemory'");
    }
    const disk = /\bMISCONF\b[^\n]*/.exec(message);
    if (disk) return new RedisDiskError(disk[0].slice(0, 200));
    if (/\bREADONLY\b/.test(message)) {
      return new RedisReadOnlyError("READONLY You can't write against a read only replica");
    }
  }
  return undefined;
}

/**
 * Replies that say Redis is there but cannot serve this yet, each passing as an outage does:
 * LOADING (a restart reading its RDB/AOF), CLUSTERDOWN (slots without a master while one is
 * elected), TRYAGAIN (a multi-key command while a slot migrates), MASTERDOWN (a replica that
 * lost its master and serves no stale data). Anywhere in the message: a Lua script (BullMQ's
 * commands) wraps the reply in its own `ERR … script …:`.
 */
const TRANSIENT_REPLIES = /\b(?:LOADING|CLUSTERDOWN|TRYAGAIN|MASTERDOWN)\b/;

/** True for a reply that says Redis cannot serve this yet (see TRANSIENT_REPLIES). */
export function isTransientReply(err: unknown): boolean {
  return err instanceof Error && TRANSIENT_REPLIES.test(err.message);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_MESSAGES = [
  /Connection is closed/,
  // ioredis's AbortError: a command in flight when the connection dropped (Redis restarting).
  /Command aborted due to connection close/,
  /max retries per request/i,
  /connect ETIMEDOUT/,
  /Stream isn't writeable/,
  TRANSIENT_REPLIES,
  // Something that is not Redis answered (REDIS_URL names the wrong port, or Redis was replaced).
  /Protocol error/,
];

/**
 * True for errors that mean "Redis is not reachable right now", not a real answer: a lost
 * connection, or a transient reply (LOADING, CLUSTERDOWN, TRYAGAIN, MASTERDOWN).
 */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof RedisUnavailableError) return true;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'ParserError') return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(err.message));
}

/**
 * What a user is told about an error from Redis: its refusal named (OOM, READONLY), a lost
 * connection as RedisUnavailableError (`url` as far as known), anything else unchanged.
 */
export function namedRedisError(err: unknown, url = 'REDIS_URL'): unknown {
  if (err instanceof WeakQueensError && !(err instanceof RedisUnavailableError)) return err;
  const refusal = redisRefusalOf(err);
  if (refusal) return refusal;
  if (err instanceof RedisUnavailableError || !isConnectionError(err)) return err;
  const message = (err as Error).message;
  return new RedisUnavailableError(
    url,
    /\bLOADING\b/.test(message) ? 'loading' : 'unreachable',
    (message.split('\n')[0] ?? '').slice(0, 200),
  );
}

/** The private redis-server (embedded mode, tests) is missing or would not start. */
export class RedisServerError extends WeakQueensError {
  readonly retryable = false;
}
