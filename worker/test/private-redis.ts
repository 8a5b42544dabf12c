// A private redis-server on a free port for the worker's own tests (never the machine's shared
// one, never a mock: BullMQ is Lua scripts). The worker cannot import @weak-queens/test, which
// depends on it, so this is the small version of test/src/test-redis.ts. A missing
// redis-server fails the test with the install command; it never skips.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '@weak-queens/shared/client';

export interface PrivateRedis {
  readonly port: number;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error('redis-server is missing: apt-get install -y redis-server (.ci/run does it)')
          : err,
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}`)));
  });
  await Promise.race([ready(port), failed]);
  return { port, stop: () => stop(child) };
}

async function ready(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const redis = new Redis({
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Refused while the server starts: the loop asks again, so the event needs no report.
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      redis.disconnect();
    }
  }
  throw new Error(`redis-server on port ${port} did not answer within 5 s`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
