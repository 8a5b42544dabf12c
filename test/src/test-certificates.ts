// A throwaway certificate authority and a server certificate it signed, made with `openssl` in a
// temporary directory: enough for a redis-server with TLS that a client trusts only when told to
// (NODE_EXTRA_CA_CERTS, or `tls: { ca }`), the way a private CA in production is trusted.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** The CA's certificate (PEM file): what NODE_EXTRA_CA_CERTS or `--cacert` names. */
  readonly caFile: string;
  /** The CA's certificate as text, for `tls: { ca }` of the test's own clients. */
  readonly ca: string;
  /** The server's certificate (SAN DNS:localhost, IP:127.0.0.1) and its private key. */
  readonly certFile: string;
  readonly keyFile: string;
  /** Deletes the directory, keys included. */
  remove(): void;
}

/**
 * Why TLS to a private redis-server cannot be tested here (no openssl, a redis-server or
 * redis-cli built without TLS), or undefined when it can.
 */
export function tlsUnavailable(): string | undefined {
  const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  if (openssl.error) return `openssl is not installed (${openssl.error.message})`;
  // A server built with TLS knows tls-port, and with no port at all refuses to start for that
  // reason; one built without it refuses the directive itself.
  const server = spawnSync('redis-server', ['--port', '0', '--tls-port', '0', '--save', ''], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (server.error) return `redis-server is not installed (${server.error.message})`;
  if (!/not listen anywhere/.test(server.stdout + server.stderr)) {
    return `redis-server has no TLS support: ${(server.stdout + server.stderr).trim().slice(-200)}`;
  }
  const cli = spawnSync('redis-cli', ['--help'], { encoding: 'utf8' });
  if (cli.error) return `redis-cli is not installed (${cli.error.message})`;
  if (!/--cacert/.test(cli.stdout + cli.stderr)) return 'redis-cli has no TLS support (--cacert)';
  return undefined;
}

/** P-256 keys: made in milliseconds, where RSA keys take a noticeable while on a busy machine. */
const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'] as const;

export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = mkdtempSync(join(tmpdir(), 'wq-tls-'));
  const file = (name: string) => join(dir, name);
  try {
    await run('openssl', [
      'req',
      '-x509',
      ...KEY,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=weak-queens test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    await run('openssl', [
      'req',
      ...KEY,
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=localhost',
    ]);
    // Cluster nodes announce 127.0.0.1, REDIS_URL says localhost: the certificate names both.
    writeFileSync(
      file('server.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1\n' +
        'extendedKeyUsage=serverAuth,clientAuth\n' +
        'basicConstraints=CA:FALSE\n',
    );
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    caFile: file('ca.pem'),
    ca: readFileSync(file('ca.pem'), 'utf8'),
    certFile: file('server.pem'),
    keyFile: file('server.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * redis-server's arguments to serve TLS only, on `port`, with these certificates. Clients need
 * no certificate of their own (tls-auth-clients no): what is tested is that they verify Redis.
 */
export function redisTlsArgs(certs: TestCertificates, port: number): string[] {
  return [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    certs.certFile,
    '--tls-key-file',
    certs.keyFile,
    '--tls-ca-cert-file',
    certs.caFile,
    '--tls-auth-clients',
    'no',
  ];
}
