// Redis connections with the settings BullMQ requires for each role, and which errors mean that
// Redis is away for now rather than a real answer.
import { Redis, type RedisOptions } from 'ioredis';
import type { WqConfig } from '../contracts/config.js';

/**
 * `worker`: commands wait through reconnects (BullMQ requires maxRetriesPerRequest: null for
 * blocking workers). `producer`: a command fails after one reconnect attempt, so a CLI never
 * hangs on an unreachable Redis.
 */
export type ConnectionRole = 'worker' | 'producer';

export function redisOptions(config: WqConfig, role: ConnectionRole): RedisOptions {
  const { host, port, username, password, db, tls } = config.redis;
  return {
    host,
    port,
    db,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(tls === undefined ? {} : { tls: { ...tls } }),
    connectionName: `wq-${role}`,
    ...(role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: false, retryStrategy: workerRetryDelay }
      : { maxRetriesPerRequest: 1, connectTimeout: 5_000 }),
  };
}

/**
 * A worker reconnects after at least a second, backing off to 5 s. ioredis's own 50 ms restarts
 * from zero whenever the TCP connect succeeds, so a port that answers but is not Redis would be
 * reconnected to twenty times a second.
 */
export function workerRetryDelay(times: number): number {
  return Math.min(Math.max(Math.round(Math.exp(times)), 1000), 5000);
}

export function createRedis(config: WqConfig, role: ConnectionRole): Redis {
  return new Redis(redisOptions(config, role));
}

const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const MESSAGES = [
  /Connection is closed/,
  /max retries per request/i,
  /connect ETIMEDOUT/,
  /Stream isn't writeable/,
  /LOADING/,
  // Something that is not Redis answered (REDIS_URL names the wrong port, or Redis was replaced).
  /Protocol error/,
];

/** True for errors that mean "Redis is not reachable right now", not a real answer. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && CODES.has(code)) return true;
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'ParserError') return true;
  return MESSAGES.some((pattern) => pattern.test(err.message));
}
