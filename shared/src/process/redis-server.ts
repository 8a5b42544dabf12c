// A private redis-server on a free loopback port, for `npm start` without REDIS_URL and for
// every test suite. AOF on by default, so results survive a restart of the embedded mode.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../client/free-port.js';
import { RedisServerError } from '../contracts/redis-errors.js';

export interface RedisServerOptions {
  /**
   * Data directory (AOF and logs); created if missing. Default: a fresh temporary directory,
   * removed by stop() (a test's throwaway server).
   */
  readonly dir?: string;
  readonly appendOnly?: boolean;
  /** Default: `redis-server` from PATH. */
  readonly binary?: string;
  readonly startTimeoutMs?: number;
  /** A fixed port (to restart a server where its clients expect it); default a free one. */
  readonly port?: number;
  /**
   * More `--name value` settings, after ours so they win (tests: `--maxmemory 2mb`,
   * `--maxmemory-policy allkeys-lru`, `--replicaof 127.0.0.1 <port>`).
   */
  readonly extraArgs?: readonly string[];
}

export class RedisServer {
  private exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    /** The temporary data directory stop() removes, when none was given. */
    private readonly throwawayDir: string | undefined,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const throwawayDir =
      options.dir === undefined ? mkdtempSync(join(tmpdir(), 'wq-redis-')) : undefined;
    const dir = options.dir ?? throwawayDir ?? '';
    mkdirSync(dir, { recursive: true });
    try {
      if (options.port !== undefined) {
        return await RedisServer.launch(options, dir, options.port, throwawayDir);
      }
      // Another process may take the free port between the probe and the bind: try again.
      let lastError: unknown;
      for (let attempt = 0; attempt < 3; attempt++) {
        const port = await freePort();
        try {
          return await RedisServer.launch(options, dir, port, throwawayDir);
        } catch (err) {
          if (err instanceof RedisServerError && /not found/.test(err.message)) throw err;
          lastError = err;
        }
      }
      throw lastError instanceof Error ? lastError : new RedisServerError(String(lastError));
    } catch (err) {
      if (throwawayDir !== undefined) rmSync(throwawayDir, { recursive: true, force: true });
      throw err;
    }
  }

  private static launch(
    options: RedisServerOptions,
    dir: string,
    port: number,
    throwawayDir: string | undefined,
  ): Promise<RedisServer> {
    const binary = options.binary ?? 'redis-server';
    const child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        options.appendOnly === false ? 'no' : 'yes',
        '--dir',
        dir,
        '--maxmemory-policy',
        'noeviction',
        ...(options.extraArgs ?? []),
      ],
      // Its own process group: Ctrl-C on the terminal reaches us, and we stop Redis last.
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    return new Promise<RedisServer>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new RedisServerError(
            `redis-server did not start within the timeout: ${output.slice(-300)}`,
          ),
        );
      }, options.startTimeoutMs ?? 10_000);
      child.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          err.code === 'ENOENT'
            ? new RedisServerError(
                `${binary} not found on PATH: install Redis (apt-get install redis-server, ` +
                  `brew install redis, or https://redis.io/download) or set REDIS_URL to a running server`,
              )
            : new RedisServerError(`${binary} would not start: ${err.message}`),
        );
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(
          new RedisServerError(`redis-server exited with code ${code}: ${output.slice(-300)}`),
        );
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          child.stdout?.removeAllListeners('data');
          child.stdout?.resume();
          child.stderr?.resume();
          resolve(new RedisServer(child, port, throwawayDir));
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    });
  }

  /** Stops the server (SIGTERM: it flushes the AOF first) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    // A Redis that cannot save (its disk full, its dir gone) refuses to exit on SIGTERM.
    const killed = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(killed);
    if (this.throwawayDir !== undefined) {
      rmSync(this.throwawayDir, { recursive: true, force: true });
    }
  }
}

/** How long a stopping redis-server may take to save and exit before it is killed. */
const STOP_GRACE_MS = 10_000;
