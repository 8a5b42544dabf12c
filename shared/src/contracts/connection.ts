// Redis connections with the settings BullMQ requires for each role.
import { Redis, type RedisOptions } from 'ioredis';
import type { WqConfig } from './config.js';

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
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : { maxRetriesPerRequest: 1, connectTimeout: 5_000 }),
  };
}

export function createRedis(config: WqConfig, role: ConnectionRole): Redis {
  return new Redis(redisOptions(config, role));
}
