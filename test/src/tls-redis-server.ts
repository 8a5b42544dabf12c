// A private redis-server that speaks only TLS, on a free loopback port, for one test file.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@weak-queens/shared/client';
import { answersPing } from './answers-ping.js';
import { redisTlsArgs, type TestCertificates } from './test-certificates.js';
import { until } from './wait.js';

export class TlsRedisServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** The REDIS_URL a user would write: the host name the certificate is verified against. */
  get url(): string {
    return `rediss://localhost:${this.port}`;
  }

  static async start(certs: TestCertificates): Promise<TlsRedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'wq-tls-redis-'));
    const port = await freePort();
    const child = spawn(
      'redis-server',
      [
        ...redisTlsArgs(certs, port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const server = new TlsRedisServer(child, dir, port);
    try {
      await until(
        `redis-server with TLS on port ${port}`,
        async () => {
          if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
          return answersPing(port, { tls: { ca: certs.ca } });
        },
        30_000,
        100,
      );
      return server;
    } catch (err) {
      await server.stop();
      throw err;
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
