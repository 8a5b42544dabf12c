// A real Redis Cluster on this machine for one test file: redis-server processes in cluster mode
// in a temporary directory, joined by `redis-cli --cluster create`, each process killable alone.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis, type RedisOptions } from 'ioredis';
import { answersPing } from './answers-ping.js';
import { redisTlsArgs, type TestCertificates } from './test-certificates.js';
import { until } from './wait.js';

const run = promisify(execFile);

export interface RedisClusterOptions {
  readonly masters?: number;
  readonly replicasPerMaster?: number;
  /** cluster-node-timeout: how long a silent master waits before its replica takes over. */
  readonly nodeTimeoutMs?: number;
  /** requirepass (and masterauth) of every node: clients must AUTH. */
  readonly password?: string;
  /** Every node speaks only TLS with these certificates, to clients and to each other. */
  readonly tls?: TestCertificates;
}

export interface ClusterNodeProcess {
  readonly port: number;
  readonly process: ChildProcess;
}

/** Why a cluster cannot be started here (a missing binary), or undefined when it can. */
export function redisClusterUnavailable(): string | undefined {
  for (const [binary, args] of [
    ['redis-server', ['--version']],
    ['redis-cli', ['--version']],
  ] as const) {
    const result = spawnSync(binary, args, { encoding: 'utf8' });
    if (result.error) return `${binary} is not installed (${result.error.message})`;
    if (result.status !== 0) return `${binary} ${args.join(' ')} failed: ${result.stderr}`;
  }
  return undefined;
}

export class RedisCluster {
  private constructor(
    private readonly dir: string,
    readonly nodes: readonly ClusterNodeProcess[],
    private readonly password?: string,
    private readonly withReplicas = true,
    private readonly tls?: TestCertificates,
  ) {}

  /** `host:port,…` of every node, as REDIS_CLUSTER_NODES takes them. */
  get seeds(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  static async start(options: RedisClusterOptions = {}): Promise<RedisCluster> {
    const masters = options.masters ?? 3;
    const replicas = options.replicasPerMaster ?? 1;
    const dir = mkdtempSync(join(tmpdir(), 'wq-cluster-'));
    const nodes: ClusterNodeProcess[] = [];
    const { password, tls } = options;
    const cluster = new RedisCluster(dir, nodes, password, replicas > 0, tls);
    const auth =
      password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
    // The cluster bus and replication use TLS too, so no node listens in the clear.
    const listenArgs = (port: number) =>
      tls === undefined
        ? ['--port', String(port)]
        : [...redisTlsArgs(tls, port), '--tls-cluster', 'yes', '--tls-replication', 'yes'];
    try {
      for (let i = 0; i < masters * (1 + replicas); i++) {
        const port = await freeClusterPort();
        const nodeDir = join(dir, String(port));
        mkdirSync(nodeDir);
        const child = spawn(
          'redis-server',
          [
            ...listenArgs(port),
            '--bind',
            '127.0.0.1',
            '--dir',
            nodeDir,
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(nodeDir, 'nodes.conf'),
            '--cluster-node-timeout',
            String(options.nodeTimeoutMs ?? 2000),
            '--appendonly',
            'no',
            '--save',
            '',
            ...auth,
          ],
          { stdio: ['ignore', 'ignore', 'inherit'] },
        );
        nodes.push({ port, process: child });
        await until(
          `redis-server on port ${port}`,
          () => answersPing(port, cluster.clientOptions()),
          30_000,
          50,
        );
      }
      await run('redis-cli', [
        ...(password === undefined ? [] : ['-a', password, '--no-auth-warning']),
        ...(tls === undefined ? [] : ['--tls', '--cacert', tls.caFile]),
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ]);
      await until('cluster_state:ok on every node', () => cluster.healthy(), 30_000, 200);
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  /**
   * Every live node says `cluster_state:ok`, and (when started with replicas) every master it knows of has a replica that is
   * connected to it (so a failover has someone to promote).
   */
  async healthy(): Promise<boolean> {
    const live = this.live();
    for (const node of live) {
      const info = await this.command(node.port, 'CLUSTER', 'INFO').catch(() => '');
      if (!/cluster_state:ok/.test(String(info))) return false;
    }
    const table = await this.table(live[0]?.port ?? 0);
    const masters = table.filter((e) => e.flags.includes('master') && !e.flags.includes('fail'));
    return (
      !this.withReplicas ||
      masters.every((m) =>
        table.some((e) => e.master === m.id && e.flags.includes('slave') && e.linkUp),
      )
    );
  }

  /** The live master process that serves `key`'s hash slot. */
  async masterOf(key: string): Promise<ClusterNodeProcess> {
    // Asked of a live node: the one killed last may have been the first.
    const port = this.live()[0]?.port ?? 0;
    const slot = Number(await this.command(port, 'CLUSTER', 'KEYSLOT', key));
    const table = await this.table(port);
    const owner = table.find(
      (e) => e.flags.includes('master') && e.slots.some(([lo, hi]) => slot >= lo && slot <= hi),
    );
    const node = this.nodes.find((n) => n.port === owner?.port);
    if (!node) throw new Error(`no master serves slot ${slot} of ${key}`);
    return node;
  }

  private live(): ClusterNodeProcess[] {
    return this.nodes.filter((n) => n.process.exitCode === null && !n.process.signalCode);
  }

  /**
   * Writes `key` (on the master of its slot, `master`) and waits until a replica has
   * acknowledged it, and so everything written before it: the replica is then ready to take
   * over without losing what the pipeline wrote. Returns how many replicas acknowledged.
   */
  async syncReplica(master: ClusterNodeProcess, key: string, timeoutMs = 15_000): Promise<number> {
    return this.onNode(master.port, async (redis) => {
      await redis.set(key, String(Date.now()));
      return Number(await redis.call('WAIT', '1', String(timeoutMs)));
    });
  }

  /** kill -9 one node; resolves once it has exited. */
  async kill(node: ClusterNodeProcess): Promise<void> {
    if (node.process.exitCode !== null || node.process.signalCode) return;
    const exited = new Promise((resolve) => node.process.once('exit', resolve));
    node.process.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.kill(n)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async table(port: number): Promise<NodeEntry[]> {
    return parseClusterNodes(String(await this.command(port, 'CLUSTER', 'NODES')));
  }

  /** What this helper's own clients need: the password, and trust in the test CA. */
  private clientOptions(): RedisOptions {
    return {
      ...(this.password === undefined ? {} : { password: this.password }),
      ...(this.tls === undefined ? {} : { tls: { ca: this.tls.ca } }),
    };
  }

  private async command(port: number, ...args: string[]): Promise<unknown> {
    return this.onNode(port, (redis) => redis.call(args[0] ?? 'PING', ...args.slice(1)));
  }

  /** Runs `work` on a fresh connection to one node (no retries), closed after. */
  private async onNode<T>(port: number, work: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      ...this.clientOptions(),
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await work(redis);
    } finally {
      redis.disconnect();
    }
  }
}

interface NodeEntry {
  readonly id: string;
  readonly port: number;
  readonly flags: readonly string[];
  /** The master's id, for a replica. */
  readonly master: string;
  readonly linkUp: boolean;
  readonly slots: readonly (readonly [number, number])[];
}

/** `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot>…` */
function parseClusterNodes(text: string): NodeEntry[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', address = '', flags = '', master = '', , , , link = '', ...slots] =
        line.split(' ');
      return {
        id,
        port: Number(/:(\d+)@/.exec(address)?.[1]),
        flags: flags.split(','),
        master,
        linkUp: link === 'connected',
        slots: slots
          .filter((s) => !s.startsWith('['))
          .map((s) => {
            const [lo, hi = lo] = s.split('-').map(Number);
            return [lo ?? 0, hi ?? 0] as const;
          }),
      };
    });
}

/** A port that is free, and whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
