// The pipeline over TLS (REDIS_URL=rediss://…) to a redis-server whose certificate a private CA
// signed: trusted through NODE_EXTRA_CA_CERTS a sweep is exact, on a single server and on a Redis
// Cluster; untrusted, `wq status` stops at once with one line that names the certificate problem.
// Where openssl or a TLS-capable redis-server is missing the tests are skipped with the reason,
// except under CI, where they fail: there a skip would hide a broken runner.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { knownSums } from '@weak-queens/shared/contracts';
import { startWorker, stopWorkers, uniquePrefix } from './src/index.js';
import { RedisCluster } from './src/redis-cluster.js';
import {
  makeTestCertificates,
  type TestCertificates,
  tlsUnavailable,
} from './src/test-certificates.js';
import { TlsRedisServer } from './src/tls-redis-server.js';
import { runWq, sumLines } from './src/wq-cli.js';

const unavailable = tlsUnavailable();
if (unavailable && process.env.CI) {
  throw new Error(`the TLS tests cannot run on this CI runner: ${unavailable}`);
}

const ONE_TO_TEN = Array.from({ length: 10 }, (_, i) => i + 1);

const EXPECTED_SUMS = [...knownSums(ONE_TO_TEN)];

/**
 * The one line a command prints when REDIS_URL (`url` as the command shows it) names a Redis whose
 * certificate comes from a CA the client does not trust: what failed, and how a private CA is
 * trusted.
 */
function untrusted(command: string, url: string): string {
  return (
    `wq ${command}: REDIS_URL: "${url}" is not allowed; expected a Redis whose TLS certificate ` +
    'this client trusts (self-signed certificate in certificate chain; ' +
    'a private CA is trusted with NODE_EXTRA_CA_CERTS=<its certificate file>)\n'
  );
}

/**
 * For one describe block: a throwaway CA and what `start` runs with its certificate (a server,
 * a cluster), stopped after the block; workers the tests start are stopped after each test.
 */
function tlsFixture<T extends { stop(): Promise<void> }>(
  start: (certs: TestCertificates) => Promise<T>,
  startTimeoutMs: number,
): { certs: TestCertificates; target: T; workers: ChildProcess[] } {
  const fixture = {} as { certs: TestCertificates; target: T; workers: ChildProcess[] };
  fixture.workers = [];
  beforeAll(async () => {
    fixture.certs = await makeTestCertificates();
    fixture.target = await start(fixture.certs);
  }, startTimeoutMs);
  afterEach(async () => {
    await stopWorkers(fixture.workers.splice(0));
  });
  afterAll(async () => {
    await fixture.target?.stop();
    fixture.certs?.remove();
  });
  return fixture;
}

describe.skipIf(unavailable !== undefined)('when a single Redis speaks only TLS', () => {
  const tls = tlsFixture((certs) => TlsRedisServer.start(certs), 60_000);

  it('sweeps n = 1..10 exactly through rediss:// when NODE_EXTRA_CA_CERTS names the private CA', async () => {
    const prefix = uniquePrefix('tls');
    const trusted = { NODE_EXTRA_CA_CERTS: tls.certs.caFile };
    tls.workers.push(startWorker({ url: tls.target.url, prefix, env: trusted }));
    const sweep = await runWq(['sweep', '1-10', '--wait', '--json'], {
      url: tls.target.url,
      prefix,
      ...trusted,
    });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(EXPECTED_SUMS);
  });

  it('takes an IP address in rediss:// too, checked against the certificate, with no warning', async () => {
    const byAddress = tls.target.url.replace('//localhost:', '//127.0.0.1:');
    expect(byAddress).not.toBe(tls.target.url);
    const status = await runWq(['status', '--json'], {
      url: byAddress,
      prefix: uniquePrefix('tls-ip'),
      NODE_EXTRA_CA_CERTS: tls.certs.caFile,
    });
    expect(status.code, status.stderr).toBe(0);
    // An IP address as the TLS server name is deprecated (DEP0123): none is sent for one.
    expect(status.stderr).toBe('');
  });

  it('wq status exits with 2 and one line naming the certificate when the CA is not trusted', async () => {
    const status = await runWq(['status'], {
      url: tls.target.url,
      prefix: uniquePrefix('tls-untrusted'),
      NODE_EXTRA_CA_CERTS: '',
    });
    expect([status.code, status.stdout]).toEqual([2, '']);
    expect(status.stderr).toBe(untrusted('status', tls.target.url));
  });

  it('a worker exits with 2 and the same line when the CA is not trusted', async () => {
    let stderr = '';
    const worker = spawnWorkerProcess({
      env: {
        ...process.env,
        REDIS_URL: tls.target.url,
        WQ_PREFIX: uniquePrefix('tls-untrusted'),
        NODE_EXTRA_CA_CERTS: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(worker)).toBe(2);
    expect(stderr).toBe(untrusted('worker', tls.target.url));
  });
});

describe.skipIf(unavailable !== undefined)('when a Redis Cluster speaks only TLS', () => {
  const tls = tlsFixture(
    (certs) => RedisCluster.start({ masters: 3, replicasPerMaster: 0, tls: certs }),
    120_000,
  );

  /** The user's environment: rediss:// to one node (TLS and its host name), every node listed. */
  function clusterEnv(prefix: string) {
    const seed = tls.target.nodes[0]?.port ?? 0;
    return {
      url: `rediss://localhost:${seed}`,
      prefix,
      REDIS_CLUSTER_NODES: tls.target.nodes.map((n) => `localhost:${n.port}`).join(','),
    };
  }

  it('sweeps n = 1..10 exactly with a hash-tagged prefix when NODE_EXTRA_CA_CERTS names the CA', async () => {
    const prefix = uniquePrefix('tls-cluster');
    expect(prefix).toMatch(/^\{tls-cluster-[0-9a-f]{8}\}$/);
    const env = { ...clusterEnv(prefix), NODE_EXTRA_CA_CERTS: tls.certs.caFile };
    const { url, REDIS_CLUSTER_NODES, NODE_EXTRA_CA_CERTS } = env;
    tls.workers.push(
      startWorker({ url, prefix, env: { REDIS_CLUSTER_NODES, NODE_EXTRA_CA_CERTS } }),
    );
    const sweep = await runWq(['sweep', '1-10', '--wait', '--json'], env);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sumLines(sweep.stdout)).toEqual(EXPECTED_SUMS);
  });

  it('wq status exits with 2 and one line naming the certificate when the CA is not trusted', async () => {
    const env = { ...clusterEnv(uniquePrefix('tls-cluster-untrusted')), NODE_EXTRA_CA_CERTS: '' };
    const status = await runWq(['status'], env);
    expect([status.code, status.stdout]).toEqual([2, '']);
    expect(status.stderr).toBe(untrusted('status', `redis-cluster://${env.REDIS_CLUSTER_NODES}`));
  });
});
