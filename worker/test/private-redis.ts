// A private redis-server on a free port for the worker's own tests (never the machine's shared
// one, never a mock: BullMQ is Lua scripts): the one every test suite starts. A missing
// redis-server fails the test with the install command; it never skips.
import { RedisServer } from '@weak-queens/shared/process';

export type PrivateRedis = Pick<RedisServer, 'port' | 'stop'>;

export function startPrivateRedis(): Promise<PrivateRedis> {
  return RedisServer.start({ appendOnly: false });
}
