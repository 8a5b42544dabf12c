// Several "hosts" on one machine: Linux network namespaces joined by veth pairs to a bridge in
// the Redis host's namespace, so workers reach Redis over a real (virtual) network whose links
// can be cut. Needs root and iproute2 (`ip netns`), as on CI.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Why namespaces cannot be used here, or undefined when they can. */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux')
    return `network namespaces are Linux only (${process.platform})`;
  if (process.getuid?.() !== 0) return 'network namespaces need root (CI runs as root)';
  const probe = `wq-probe-${randomBytes(3).toString('hex')}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
    execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return `ip netns add failed: ${stderr || (err as Error).message}`;
  }
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: 'pipe' });
}

export interface Host {
  readonly name: string;
  /** The namespace (`ip netns exec <netns> …`). */
  readonly netns: string;
  readonly address: string;
  /** This host's end of its link, inside its namespace. */
  readonly link: string;
}

/**
 * One subnet 10.213.<k>.0/24: the Redis host (10.213.k.1, on the bridge), worker hosts from
 * .2 up, and the machine itself (the test, i.e. the producer) at .254.
 */
export class NetnsLab {
  readonly redis: Host;
  readonly workers: Host[] = [];
  private readonly id = randomBytes(2).toString('hex');
  private readonly subnet = `10.213.${1 + (parseInt(this.id, 16) % 250)}`;
  private readonly namespaces: string[] = [];
  private rootLink?: string;
  private readonly children: ChildProcess[] = [];
  private readonly onExit = (): void => this.destroySync();

  constructor(workerHosts: readonly string[]) {
    process.once('exit', this.onExit);
    try {
      this.redis = this.addNamespace('redis', `${this.subnet}.1`, 'wqbr0');
      ip('-n', this.redis.netns, 'link', 'add', 'wqbr0', 'type', 'bridge');
      ip('-n', this.redis.netns, 'addr', 'add', `${this.redis.address}/24`, 'dev', 'wqbr0');
      ip('-n', this.redis.netns, 'link', 'set', 'wqbr0', 'up');
      workerHosts.forEach((name, i) => {
        const host = this.addNamespace(name, `${this.subnet}.${i + 2}`, `wq${name}0`);
        this.plug(host.netns, host.link, `${this.subnet}.${i + 2}`, `wq${name}-${this.id}`);
        this.workers.push(host);
      });
      // The machine itself joins too, so the test can talk to Redis like a producer would.
      this.rootLink = `wqt-${this.id}`;
      this.plug(undefined, this.rootLink, `${this.subnet}.254`, `wqt1-${this.id}`);
    } catch (err) {
      this.destroySync();
      throw err;
    }
  }

  private addNamespace(name: string, address: string, link: string): Host {
    const netns = `wq-${name}-${this.id}`;
    ip('netns', 'add', netns);
    this.namespaces.push(netns);
    ip('-n', netns, 'link', 'set', 'lo', 'up');
    return { name, netns, address, link };
  }

  /** A veth pair from `netns` (the root namespace when undefined) to the bridge. */
  private plug(netns: string | undefined, link: string, address: string, bridgeSide: string): void {
    const here = netns === undefined ? [] : ['netns', netns];
    ip(
      'link',
      'add',
      link,
      ...here,
      'type',
      'veth',
      'peer',
      'name',
      bridgeSide,
      'netns',
      this.redis.netns,
    );
    ip('-n', this.redis.netns, 'link', 'set', bridgeSide, 'master', 'wqbr0', 'up');
    const inNs = netns === undefined ? [] : ['-n', netns];
    ip(...inNs, 'addr', 'add', `${address}/24`, 'dev', link);
    ip(...inNs, 'link', 'set', link, 'up');
  }

  /** Runs a command inside a host's namespace; it is killed (SIGKILL) by destroy(). */
  spawnIn(
    host: Host,
    command: string,
    args: readonly string[],
    env: NodeJS.ProcessEnv,
  ): ChildProcess {
    // `ip netns exec` execs the command in place: the child's pid is the command's own.
    const child = spawn('ip', ['netns', 'exec', host.netns, command, ...args], {
      env,
      // stdout is Redis's chatter; stderr carries worker errors and stays visible.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.push(child);
    return child;
  }

  /** Pulls the host's cable: its packets go nowhere, its TCP connections hang (no reset). */
  cut(host: Host): void {
    ip('-n', host.netns, 'link', 'set', host.link, 'down');
  }

  /** Plugs the host's cable back in: its hanging connections carry on. */
  restore(host: Host): void {
    ip('-n', host.netns, 'link', 'set', host.link, 'up');
  }

  /** Kills every process started here and deletes the namespaces (and with them the links). */
  async destroy(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    this.destroySync();
  }

  private destroySync(): void {
    process.off('exit', this.onExit);
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    if (this.rootLink) {
      try {
        ip('link', 'del', this.rootLink);
      } catch {
        // Already gone with its peer's namespace.
      }
      this.rootLink = undefined;
    }
    for (const netns of this.namespaces.splice(0)) {
      try {
        ip('netns', 'del', netns);
      } catch {
        // Best effort: a namespace that is already gone is what we want.
      }
    }
  }
}
