// Whether a redis-server being started answers yet: one PING on a fresh connection, never a
// retry (the caller's `until` loop asks again).
import { Redis, type RedisOptions } from 'ioredis';

/** True once 127.0.0.1:port (with these client options: a password, TLS) answers PONG. */
export async function answersPing(
  port: number,
  clientOptions: RedisOptions = {},
): Promise<boolean> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...clientOptions,
  });
  // Refused while the server starts: the answer is `false`, the event needs no report.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
