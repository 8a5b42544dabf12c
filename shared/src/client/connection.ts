// Redis connections with the settings BullMQ requires for each role, and which errors mean that
// Redis is away for now rather than a real answer.
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { ioredis } from './redis-libraries.js';
import type { ConnectionOptions } from 'bullmq';
import type { WqConfig } from '../contracts/config.js';

/** A connection to a single Redis (REDIS_URL) or to a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisClient = Redis | Cluster;

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

export function createRedis(config: WqConfig, role: ConnectionRole): RedisClient {
  const nodes = config.clusterNodes;
  if (nodes === undefined) return new ioredis.Redis(redisOptions(config, role));
  return new ioredis.Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    clusterOptions(config, role),
  );
}

/** How long a command waits through a failover before it fails (see clusterOptions). */
const FAILOVER_PATIENCE_MS = { worker: 60_000, producer: 15_000 } as const;
const FAILOVER_RETRY_MS = 250;

/**
 * A cluster client for the role. A command sent to a master that just died is retried every
 * 250 ms (the slot map refreshed each time) until a replica has taken over: ioredis's default
 * gives up after 16 tries at 100 ms, sooner than a failover (cluster-node-timeout plus an
 * election) completes, and a worker would then fail units that only had to wait.
 */
export function clusterOptions(config: WqConfig, role: ConnectionRole): ClusterOptions {
  const { username, password, tls } = config.redis;
  const options = redisOptions(config, role);
  return {
    redisOptions: {
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(tls === undefined ? {} : { tls: { ...tls } }),
      connectionName: options.connectionName,
      maxRetriesPerRequest: options.maxRetriesPerRequest ?? null,
      ...(options.connectTimeout === undefined ? {} : { connectTimeout: options.connectTimeout }),
    },
    retryDelayOnFailover: FAILOVER_RETRY_MS,
    retryDelayOnClusterDown: FAILOVER_RETRY_MS,
    retryDelayOnTryAgain: FAILOVER_RETRY_MS,
    maxRedirections: Math.ceil(FAILOVER_PATIENCE_MS[role] / FAILOVER_RETRY_MS),
    // The slot map also changes without an error (a failover seen from another client).
    slotsRefreshInterval: 2_000,
    ...(role === 'worker'
      ? { enableReadyCheck: false, clusterRetryStrategy: workerRetryDelay }
      : { clusterRetryStrategy: (times: number) => (times > 1 ? null : 1000) }),
  };
}

/**
 * The `connection` BullMQ objects get: options for a single Redis (each opens its own), or the
 * shared cluster client, which BullMQ duplicates where it blocks and never closes (its owner
 * does). A cluster needs the instance: BullMQ only builds single-node connections from options.
 */
export function bullConnection(
  config: WqConfig,
  role: ConnectionRole,
  client: RedisClient,
): ConnectionOptions {
  return config.clusterNodes === undefined ? redisOptions(config, role) : client;
}

// Which errors mean "Redis is away for now" is pure text matching, kept with the error types.
export { isConnectionError } from '../contracts/redis-errors.js';
