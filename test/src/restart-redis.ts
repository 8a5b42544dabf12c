// Redis restarted under running clients: the private redis-server stopped, left down a while,
// and started again on its port and directory with AOF on, so it comes back with its data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RedisServer } from '@weak-queens/shared/process';
import { sleep } from './wait.js';

interface RestartableRedis {
  readonly url: string;
  /** Stops the server, waits `downMs`, and starts it again where it was. */
  restart(downMs?: number): Promise<void>;
}

/**
 * A private redis-server with AOF on in its own directory for the enclosing describe block:
 * started before its tests, stopped and removed after them (after the block's own afterAll
 * hooks, which run first, so they may still stop the clients that use it).
 */
export function restartableRedis(label: string): RestartableRedis {
  let dir: string | undefined;
  let server: RedisServer | undefined;
  const running = (): { dir: string; server: RedisServer } => {
    if (!dir || !server) throw new Error(`the ${label} redis-server is not running`);
    return { dir, server };
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `wq-${label}-`));
    server = await RedisServer.start({ dir, appendOnly: true });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return running().server.url;
    },
    async restart(downMs = 1500) {
      const { dir: where, server: stopping } = running();
      await stopping.stop();
      server = undefined;
      await sleep(downMs);
      server = await RedisServer.start({ dir: where, port: stopping.port, appendOnly: true });
    },
  };
}
