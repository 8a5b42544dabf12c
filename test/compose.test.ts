// docker-compose.yml and the Dockerfile checked against the code, since no Docker engine runs
// here: every `wq` command and flag they use exists, every environment variable is one the
// config schema reads (and its value passes it), and the image runs as a non-root user.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  compileDashboardOptions,
  DASHBOARD_ENV,
  dashboardOptionsFromEnv,
} from '@weak-queens/dashboard';
import { CONFIG_ENV, compileConfig, parseNSpec } from '@weak-queens/shared/contracts';
import { createLogger } from '@weak-queens/shared/client';
import { parseYamlSubset, type YamlValue } from './src/compose-yaml.js';
import { runWq } from './src/wq-cli.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compose = parseYamlSubset(readFileSync(join(root, 'docker-compose.yml'), 'utf8'));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

type Service = { [key: string]: YamlValue };

function service(name: string): Service {
  const services = compose.services as { [key: string]: YamlValue };
  const found = services[name];
  if (typeof found !== 'object' || Array.isArray(found)) throw new Error(`no service ${name}`);
  return found;
}

function list(value: YamlValue | undefined): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new Error(`expected a list of strings, got ${JSON.stringify(value)}`);
  }
  return value;
}

function text(value: YamlValue | undefined): string {
  if (typeof value !== 'string') throw new Error(`expected a scalar, got ${JSON.stringify(value)}`);
  return value;
}

function environment(s: Service): Record<string, string> {
  const env = s.environment ?? {};
  if (typeof env !== 'object' || Array.isArray(env)) throw new Error('environment: a mapping');
  return env as Record<string, string>;
}

/** `${NAME:?message}` as Compose would fill it from the shell: a sample value. */
function interpolate(env: Record<string, string>, samples: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      const required = /^\$\{([A-Z_]+):\?[^}]*\}$/.exec(v);
      return [k, required?.[1] ? (samples[required[1]] ?? '') : v];
    }),
  );
}

const OUR_SERVICES = ['worker', 'producer', 'dashboard'];
const KNOWN_ENV = new Set<string>([...CONFIG_ENV, ...DASHBOARD_ENV]);
const SAMPLE_TOKEN = 'a-sample-token-of-32-characters!';

describe('when docker-compose.yml is read against the code', () => {
  it('has redis, a worker, the producer and the dashboard', () => {
    expect(Object.keys(compose.services as object).sort()).toEqual(
      ['dashboard', 'producer', 'redis', 'worker'].sort(),
    );
  });

  it('runs Redis with AOF, noeviction and a named volume for its data', () => {
    const redis = service('redis');
    const command = list(redis.command);
    expect(command[0]).toBe('redis-server');
    expect(
      command.slice(command.indexOf('--appendonly'), command.indexOf('--appendonly') + 2),
    ).toEqual(['--appendonly', 'yes']);
    const policy = command.indexOf('--maxmemory-policy');
    expect(command.slice(policy, policy + 2)).toEqual(['--maxmemory-policy', 'noeviction']);
    const [volume] = list(redis.volumes);
    expect(volume).toMatch(/^[a-z-]+:\/data$/);
    expect(Object.keys(compose.volumes as object)).toContain(volume?.split(':')[0]);
  });

  it('runs only wq commands that exist, with flags each command documents', async () => {
    const top = await runWq(['--help'], { url: 'redis://127.0.0.1:1', prefix: 'unused' });
    expect(top.code).toBe(0);
    for (const name of OUR_SERVICES) {
      const s = service(name);
      expect(s.build, name).toBe('.');
      expect(s.image, name).toBe('weak-queens:local');
      const [command, ...args] = list(s.command);
      expect(top.stdout, `${name}: wq ${command}`).toMatch(new RegExp(`^  ${command} `, 'm'));
      const help = await runWq([command ?? '', '--help'], { url: '', prefix: 'unused' });
      expect(help.code, `${name}: wq ${command} --help`).toBe(0);
      for (const flag of args.filter((a) => a.startsWith('--'))) {
        expect(help.stdout, `${name}: wq ${command} ${flag}`).toContain(flag);
      }
    }
    const [, spec] = list(service('producer').command);
    expect(parseNSpec(spec ?? '')).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
  });

  it('sets only environment variables the config schema reads, with values it accepts', () => {
    for (const name of OUR_SERVICES) {
      const env = environment(service(name));
      for (const key of Object.keys(env)) expect(KNOWN_ENV, `${name}: ${key}`).toContain(key);
      const config = compileConfig(interpolate(env, { DASHBOARD_TOKEN: SAMPLE_TOKEN }));
      expect(config.redis.host, name).toBe('redis');
    }
  });

  it('scales workers: no fixed name or host port, and time to hand units back on stop', () => {
    const worker = service('worker');
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
    expect(environment(worker).WQ_CONCURRENCY).toBe('1');
    const grace = Number(environment(worker).WQ_SHUTDOWN_GRACE_MS);
    expect(Number(/^(\d+)s$/.exec(text(worker.stop_grace_period))?.[1]) * 1000).toBeGreaterThan(
      grace,
    );
  });

  it('runs the producer once and waits for the sweep', () => {
    const producer = service('producer');
    expect(producer.restart).toBe('no');
    expect(list(producer.command)).toContain('--wait');
  });

  it('serves the dashboard on all interfaces only with a required token', () => {
    const dashboard = service('dashboard');
    const args = list(dashboard.command);
    const flag = (f: string) => args[args.indexOf(f) + 1];
    expect(flag('--host')).toBe('0.0.0.0');
    const env = environment(dashboard);
    // The token comes from the shell and is required; it is never written in the file.
    expect(env.DASHBOARD_TOKEN).toMatch(/^\$\{DASHBOARD_TOKEN:\?.+\}$/);
    expect(list(dashboard.ports)).toEqual([`${flag('--port')}:${flag('--port')}`]);
    const options = dashboardOptionsFromEnv(
      interpolate(env, { DASHBOARD_TOKEN: SAMPLE_TOKEN }),
      { host: flag('--host'), port: flag('--port') },
      createLogger({ level: 'silent' }),
    );
    expect(compileDashboardOptions(options).host).toBe('0.0.0.0');
    // Without the token the same flags are refused: 0.0.0.0 needs one.
    expect(() =>
      compileDashboardOptions(
        dashboardOptionsFromEnv(
          interpolate(env, {}),
          { host: flag('--host'), port: flag('--port') },
          createLogger({ level: 'silent' }),
        ),
      ),
    ).toThrow(/DASHBOARD_TOKEN/);
  });
});

describe('when the Dockerfile is read against the repository', () => {
  const lines = dockerfile
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: { name: string; lines: string[] }[] = [];
  for (const line of lines) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)$/i.exec(line);
    if (from?.[1]) stages.push({ name: from[1], lines: [] });
    else if (/^FROM\s/i.test(line)) throw new Error(`every stage is named: ${line}`);
    else stages.at(-1)?.lines.push(line);
  }

  it('has a dependencies, a build and a runtime stage, in that order', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
  });

  it('copies only from earlier stages, and only paths that exist in the repository', () => {
    stages.forEach((stage, i) => {
      for (const line of stage.lines.filter((l) => l.startsWith('COPY'))) {
        const from = /--from=(\S+)/.exec(line)?.[1];
        const parts = line.split(/\s+/).filter((p) => !p.startsWith('--'));
        const sources = parts.slice(1, -1);
        if (from) {
          expect(
            stages.slice(0, i).map((s) => s.name),
            line,
          ).toContain(from);
        } else {
          for (const source of sources) expect(existsSync(join(root, source)), line).toBe(true);
        }
      }
    });
  });

  it('runs as a non-root user the wq entry point that exists', () => {
    const runtime = stages.at(-1);
    const users = runtime?.lines.filter((l) => l.startsWith('USER ')) ?? [];
    expect(users).toHaveLength(1);
    const user = users[0]?.split(/\s+/)[1] ?? '';
    expect(['root', '0', '0:0']).not.toContain(user);
    const entry = runtime?.lines.find((l) => l.startsWith('ENTRYPOINT'));
    const argv = JSON.parse(entry?.replace(/^ENTRYPOINT\s+/, '') ?? '[]') as string[];
    expect(argv[0]).toBe('node');
    expect(argv[1]).toMatch(/^\/app\//);
    expect(existsSync(join(root, (argv[1] ?? '').replace(/^\/app\//, '')))).toBe(true);
    // USER comes before the entry point, so nothing after it runs as root.
    expect(runtime?.lines.indexOf(users[0] ?? '')).toBeLessThan(
      runtime?.lines.indexOf(entry ?? '') ?? -1,
    );
  });

  it('keeps generated and local files out of the build context', () => {
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.git', '.data']) {
      expect(ignored).toContain(pattern);
    }
  });
});
