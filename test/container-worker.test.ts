// The image users run, as a worker container: it runs as a non-root user with production
// dependencies only; its HEALTHCHECK turns a frozen worker unhealthy and a live one healthy; and
// `docker stop` in the middle of a unit stops it by itself within its grace period, with the unit
// handed back (no attempt spent) for another container to finish exactly.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@weak-queens/shared/contracts';
import {
  BUILD_MS,
  buildProjectImage,
  describeWithContainers,
  docker,
  PROJECT_IMAGE,
  removeContainers,
  runRedisContainer,
  runWorkerContainer,
} from './src/container-engine.js';
import { addLongUnit } from './src/one-unit-plan.js';
import { until } from './src/wait.js';

describeWithContainers('when the image runs a worker container', 'worker', (e, names) => {
  const { id, network, redisName, redisUrl, prefix } = names;
  const containers: string[] = [];
  let url: string;
  let queue: Queue;

  /** A worker container on the network, with extra `docker run` flags. */
  async function runWorker(name: string, flags: string[] = [], env: Record<string, string> = {}) {
    const vars = {
      REDIS_URL: redisUrl,
      WQ_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ...env,
    };
    containers.push(name);
    await runWorkerContainer(e, name, network, vars, flags);
  }

  const inspect = (name: string, format: string): Promise<string> =>
    docker(e, 'inspect', '-f', format, name);

  beforeAll(async () => {
    await buildProjectImage(e);
    await docker(e, 'network', 'create', network);
    containers.push(redisName);
    url = await runRedisContainer(e, redisName, network);
    queue = new Queue(QUEUE_NAMES.count, { connection: { url }, prefix });
    await queue.waitUntilReady();
  }, BUILD_MS);

  afterAll(async () => {
    await queue?.close();
    await removeContainers(e, network, containers);
  }, 120_000);

  it('runs as a non-root user, with production dependencies only', async () => {
    const image = JSON.parse(await docker(e, 'image', 'inspect', PROJECT_IMAGE)) as {
      Size: number;
      Config: { User: string; Healthcheck?: { Test: string[] } };
    }[];
    expect(image[0]?.Config.User).toBe('node');
    expect(image[0]?.Config.Healthcheck?.Test).toEqual([
      'CMD',
      'node',
      '/app/scripts/container-health.mjs',
    ]);
    const modules = await docker(
      e,
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      PROJECT_IMAGE,
      '-c',
      'id -u; ls /app/node_modules /app/node_modules/.bin',
    );
    const [uid, ...names] = modules.split('\n');
    expect(uid).not.toBe('0');
    // The root's and the test and bench packages' dev tools. (typescript is there: valibot
    // names it as a peer, and npm installs peers with production dependencies.)
    for (const dev of [
      'vitest',
      'eslint',
      'prettier',
      'turbo',
      'testcontainers',
      'playwright-core',
    ]) {
      expect(names, dev).not.toContain(dev);
    }
    expect(names).toContain('bullmq');
    console.info(`image ${PROJECT_IMAGE}: ${(image[0]?.Size ?? 0) / 1e6} MB`);
  });

  it('is healthy while it heartbeats, unhealthy when frozen, healthy again when thawed', async () => {
    const name = `wq-health-${id}`;
    // The image's own HEALTHCHECK command, checked every second instead of every ten.
    await runWorker(name, [
      '--health-interval',
      '1s',
      '--health-retries',
      '1',
      '--health-start-period',
      '0s',
    ]);
    const health = () => inspect(name, '{{.State.Health.Status}}');
    await until(
      'the worker to be healthy',
      async () => (await health()) === 'healthy',
      120_000,
      500,
    );
    // SIGSTOP to the worker process (host pid, from `docker top`): it is there, and says nothing.
    const top = await docker(e, 'top', name, '-eo', 'pid,args');
    const pid = top
      .split('\n')
      .find((l) => l.includes('worker/dist/main.js'))
      ?.trim()
      .split(/\s+/)[0];
    expect(pid).toMatch(/^\d+$/);
    process.kill(Number(pid), 'SIGSTOP');
    try {
      await until(
        'the frozen worker to be unhealthy',
        async () => (await health()) === 'unhealthy',
        120_000,
        500,
      );
      expect(await inspect(name, '{{.State.Running}}')).toBe('true');
    } finally {
      process.kill(Number(pid), 'SIGCONT');
    }
    await until(
      'the thawed worker to be healthy',
      async () => (await health()) === 'healthy',
      120_000,
      500,
    );
    await docker(e, 'rm', '-f', name);
  });

  it('stops by itself on docker stop during a unit, handing it back for another', async () => {
    const job = await addLongUnit(queue, url, prefix, 's-stop');
    const first = `wq-stop-${id}`;
    await runWorker(first, [], { WQ_SHUTDOWN_GRACE_MS: '200', WQ_CONCURRENCY: '1' });
    await until('the unit to start', async () => (await job.getState()) === 'active', 120_000, 50);
    // docker stop: SIGTERM, then SIGKILL after 20 s. Exit code 143 (128 + SIGTERM, not 137 for
    // SIGKILL) means it closed by itself on SIGTERM, within its grace period, rather than being
    // killed.
    await docker(e, 'stop', '-t', '20', first);
    expect(await inspect(first, '{{.State.ExitCode}}')).toBe('143');
    expect(await queue.getJobState('n16-d15')).toBe('waiting');

    await runWorker(`wq-finish-${id}`, [], { WQ_CONCURRENCY: '1' });
    await until(
      'the unit to complete',
      async () => (await job.getState()) === 'completed',
      120_000,
      250,
    );
    const done = await queue.getJob('n16-d15');
    expect((done?.returnvalue as { value: string }).value).toBe('14772512');
    // Handing back spent no attempt: with attempts = 1 it would have failed otherwise.
    expect(done?.attemptsMade).toBe(1);
  });
});
