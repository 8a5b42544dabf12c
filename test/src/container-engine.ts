// The container engine the test run has (container-global-setup.ts), and the `docker` and
// Compose commands the container tests run against it, as a user would type them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, inject } from 'vitest';
import { freePort, PipelineClient } from '@weak-queens/shared/client';
import { compileConfig } from '@weak-queens/shared/contracts';
import { until } from './wait.js';

export type ContainerEngine =
  | {
      /** DOCKER_HOST of the engine (ours, or one that answered before the tests). */
      readonly dockerHost: string;
      /** True when the tests started it (and stop it after the last file). */
      readonly started: boolean;
      /** The Node 20 and Redis images to build and run on (official, or built here). */
      readonly nodeImage: string;
      readonly redisImage: string;
      /** `docker compose` or `docker-compose`. */
      readonly compose: readonly string[];
    }
  | { readonly missing: string };

export type ReadyEngine = Exclude<ContainerEngine, { missing: string }>;

/** The repository root: docker-compose.yml and the Dockerfile. */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let noted = false;

/**
 * The engine, or undefined (after one line saying what is missing) when there is none: the
 * caller skips. Under CI=1 the global set-up has already failed the run instead.
 */
export function containerEngine(): ReadyEngine | undefined {
  const engine = inject('containerEngine');
  if ('missing' in engine) {
    if (!noted) console.warn(`container tests skipped: ${engine.missing}`);
    noted = true;
    return undefined;
  }
  return engine;
}

export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command against the engine; resolves with its exit code (never rejects). */
function runAgainst(
  engine: ReadyEngine,
  argv: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 15 * 60_000,
): Promise<CommandRun> {
  const [command, ...args] = argv;
  return new Promise((resolve) => {
    execFile(
      command ?? 'docker',
      args,
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DOCKER_HOST: engine.dockerHost, DOCKER_BUILDKIT: '0', ...env },
        maxBuffer: 64 << 20,
        timeout: timeoutMs,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `docker …`; throws with its stderr when it fails. */
export async function docker(engine: ReadyEngine, ...args: string[]): Promise<string> {
  const run = await runAgainst(engine, ['docker', ...args]);
  if (run.code !== 0) throw new Error(`docker ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** One Compose project of docker-compose.yml (plus overlays), with its variables. */
export class ComposeProject {
  constructor(
    readonly engine: ReadyEngine,
    readonly name: string,
    readonly env: Record<string, string>,
    readonly files: readonly string[] = ['docker-compose.yml'],
  ) {}

  /** `docker compose -p <name> -f … <args>`, resolved with its exit code. */
  run(args: readonly string[], env: Record<string, string> = this.env): Promise<CommandRun> {
    const files = this.files.flatMap((f) => ['-f', join(REPO_ROOT, f)]);
    return runAgainst(this.engine, [...this.engine.compose, '-p', this.name, ...files, ...args], {
      ...env,
      // docker-compose 1.29 builds with docker-py's classic builder; v2 is told the same.
      COMPOSE_DOCKER_CLI_BUILD: '0',
    });
  }

  /** As `run`, but throws with the output when it fails. */
  async ok(...args: string[]): Promise<string> {
    const run = await this.run(args);
    if (run.code !== 0) {
      throw new Error(`compose ${args.join(' ')} exited ${run.code}: ${run.stderr.trim()}`);
    }
    return run.stdout;
  }

  /** The ids of this project's containers (all, or of one service), running or not. */
  async containers(service?: string): Promise<string[]> {
    const filters = [`label=com.docker.compose.project=${this.name}`];
    if (service) filters.push(`label=com.docker.compose.service=${service}`);
    const out = await docker(this.engine, 'ps', '-aq', ...filters.flatMap((f) => ['--filter', f]));
    return out ? out.split('\n') : [];
  }

  /** Everything labelled with this project: containers, networks and volumes. */
  async leftovers(): Promise<string[]> {
    const label = `label=com.docker.compose.project=${this.name}`;
    const [containers, networks, volumes] = await Promise.all([
      docker(this.engine, 'ps', '-aq', '--filter', label),
      docker(this.engine, 'network', 'ls', '-q', '--filter', label),
      docker(this.engine, 'volume', 'ls', '-q', '--filter', label),
    ]);
    return [
      ...containers
        .split('\n')
        .filter(Boolean)
        .map((c) => `container ${c}`),
      ...networks
        .split('\n')
        .filter(Boolean)
        .map((n) => `network ${n}`),
      ...volumes
        .split('\n')
        .filter(Boolean)
        .map((v) => `volume ${v}`),
    ];
  }
}

/** How long a test may wait for an image build: minutes on a busy 2-core machine, the first most. */
export const BUILD_MS = 15 * 60_000;

/** The image every role runs, as docker-compose.yml tags it. */
export const PROJECT_IMAGE = 'weak-queens:local';

let built: Promise<void> | undefined;

/**
 * `docker build` of the repository's Dockerfile on the engine's Node image, once per test file
 * (unchanged layers come from the engine's cache, so after the first build it takes seconds).
 */
export function buildProjectImage(engine: ReadyEngine): Promise<void> {
  built ??= runAgainst(engine, [
    'docker',
    'build',
    '-q',
    '--build-arg',
    `NODE_IMAGE=${engine.nodeImage}`,
    '-t',
    PROJECT_IMAGE,
    '.',
  ]).then((run) => {
    if (run.code !== 0) throw new Error(`docker build exited ${run.code}: ${run.stderr.trim()}`);
  });
  return built;
}

/**
 * `describe` for a suite that runs containers: skipped (containerEngine says why) where the test
 * run has no engine; `body` gets the engine and its fresh names (containerNames(label)).
 */
export function describeWithContainers(
  title: string,
  label: string,
  body: (engine: ReadyEngine, names: ContainerNames) => void,
): void {
  const engine = containerEngine();
  describe.skipIf(!engine)(title, () => body(engine as ReadyEngine, containerNames(label)));
}

/** Removes a suite's containers (with their volumes) and its network, whatever is left of them. */
export async function removeContainers(
  engine: ReadyEngine,
  network: string,
  containers: readonly string[],
): Promise<void> {
  if (containers.length)
    await docker(engine, 'rm', '-f', '-v', ...containers).catch(() => undefined);
  await docker(engine, 'network', 'rm', network).catch(() => undefined);
}

type ContainerNames = ReturnType<typeof containerNames>;

/**
 * Fresh names for one test's containers, so runs side by side never meet: a network, the Redis
 * container on it (`redisUrl`: its URL from inside the network), a key prefix, and the id in
 * them for more names.
 */
function containerNames(label: string) {
  const id = randomBytes(3).toString('hex');
  const redisName = `wq-redis-${id}`;
  return {
    id,
    network: `wq-${label}-${id}`,
    redisName,
    redisUrl: `redis://${redisName}:6379`,
    prefix: `{${label}-${id}}`,
  };
}

/**
 * A Redis container named `name` on `network` (no snapshots), its port published on a free
 * loopback port of this host; resolves to its URL from here (containers reach it by its name).
 */
export async function runRedisContainer(
  engine: ReadyEngine,
  name: string,
  network: string,
): Promise<string> {
  const port = await freePort();
  await docker(
    engine,
    'run',
    '-d',
    '--name',
    name,
    '--network',
    network,
    '-p',
    `127.0.0.1:${port}:6379`,
    engine.redisImage,
    'redis-server',
    '--save',
    '',
  );
  return `redis://127.0.0.1:${port}`;
}

/** A worker container of the project image, host name `name`, with `env` and extra run flags. */
export async function runWorkerContainer(
  engine: ReadyEngine,
  name: string,
  network: string,
  env: Readonly<Record<string, string>>,
  flags: readonly string[] = [],
): Promise<void> {
  await docker(
    engine,
    'run',
    '-d',
    '--init',
    '--name',
    name,
    '--hostname',
    name,
    '--network',
    network,
    ...flags,
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    PROJECT_IMAGE,
    'worker',
  );
}

/** What `containerPipeline` set up: the Redis container's URL from here, and a client on it. */
export interface ContainerPipeline {
  readonly url: string;
  readonly client: PipelineClient;
}

/**
 * The project image built, `network` created and a Redis container `redisName` on it, with a
 * pipeline client from this host (configured by `vars` besides REDIS_URL) once Redis answers.
 */
export async function containerPipeline(
  engine: ReadyEngine,
  network: string,
  redisName: string,
  vars: Readonly<Record<string, string>>,
): Promise<ContainerPipeline> {
  await buildProjectImage(engine);
  await docker(engine, 'network', 'create', network);
  const url = await runRedisContainer(engine, redisName, network);
  const client = new PipelineClient(compileConfig({ ...vars, REDIS_URL: url }));
  await until('Redis to answer', async () => {
    try {
      return (await client.registry.clock()).redisMs > 0;
    } catch {
      return false;
    }
  });
  return { url, client };
}

/** Waits (up to two minutes: containers start slowly on a busy machine) for `count` workers. */
export function untilLiveWorkers(client: PipelineClient, count: number): Promise<void> {
  return until(
    `${count} worker containers to heartbeat`,
    async () => (await client.registry.liveWorkers()).length === count,
    120_000,
    250,
  );
}
