// Redis restarted under running clients: the private redis-server stopped, left down a while,
// and started again on its port and directory with AOF on, so it comes back with its data.
import { RedisServer } from '@weak-queens/producer';
import { sleep } from './wait.js';

/** Stops `server`, waits `downMs`, and resolves to the server started again where it was. */
export async function restartRedis(
  server: RedisServer,
  dir: string,
  downMs = 1500,
): Promise<RedisServer> {
  const port = server.port;
  await server.stop();
  await sleep(downMs);
  return RedisServer.start({ dir, port, appendOnly: true });
}
