// Twenty overlapping submissions at the same instant, from every front end a user has: `wq
// sweep --wait` processes, the dashboard's form (its JSON API, as the page posts it) and `npm
// start` processes with REDIS_URL set. Each n is queued once (the submit lock makes "is it
// queued? if not, add it" one step), every S(n) is exact and every unit is counted once.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardServer, type DashboardServer } from '@weak-queens/dashboard';
import { createLogger, PipelineClient } from '@weak-queens/shared/client';
import { compileConfig, knownSums } from '@weak-queens/shared/contracts';
import { pipelineFixture } from './src/index.js';
import { runNpmStart, runWq } from './src/wq-cli.js';

const ALL = Array.from({ length: 13 }, (_, i) => i + 1);
const CSRF = 'cd'.repeat(32);

describe('when 20 submitters sweep overlapping sizes at once', () => {
  const redis = pipelineFixture({ closeAfter: 'all' });
  let prefix: string;
  let client: PipelineClient;
  let dashboard: DashboardServer;
  let base: string;

  beforeAll(async () => {
    const pipeline = redis.openPipeline('concurrent', { workers: 2 });
    ({ prefix, client } = pipeline);
    const config = compileConfig({ REDIS_URL: redis.url, WQ_PREFIX: prefix });
    dashboard = createDashboardServer({
      config,
      logger: createLogger({ level: 'silent', pretty: false }),
      port: 0,
      pollMs: 500,
    });
    base = await dashboard.listen();
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('queues each n once, counts every unit once, and every S(n) is exact', async () => {
    const env = { url: redis.url, prefix };
    const spec = (i: number): string => (i % 2 === 0 ? '1-13' : '10-13');
    const submissions: Promise<string>[] = [];
    // 9 × the CLI, each following its sweep to the end.
    for (let i = 0; i < 9; i++) {
      submissions.push(
        runWq(['sweep', spec(i), '--wait', '--json'], env).then((run) => {
          expect(run.code, run.stderr).toBe(0);
          return run.stdout;
        }),
      );
    }
    // 9 × the dashboard's form.
    for (let i = 0; i < 9; i++) {
      submissions.push(
        postJson(new URL('/api/sweeps', base).href, { ns: spec(i) }).then(({ status, text }) => {
          expect(status, text).toBe(201);
          return text;
        }),
      );
    }
    // 2 × npm start against this Redis (each with a worker of its own).
    for (let i = 0; i < 2; i++) {
      submissions.push(
        npmStart(['--n', spec(i), '--json', '--workers', '1'], {
          REDIS_URL: redis.url,
          WQ_PREFIX: prefix,
        }),
      );
    }
    const outputs = await Promise.all(submissions);

    // The CLI and npm start print one JSON line per n, exact.
    const known = knownSums(ALL);
    for (const output of [...outputs.slice(0, 9), ...outputs.slice(18)]) {
      for (const line of output.trim().split('\n')) {
        const { n, S } = JSON.parse(line) as { n: number; S: string };
        expect(S).toBe(known.get(n));
      }
    }
    // The dashboard's sweeps finish too (their n are the ones the others counted).
    const results = await client.results(ALL);
    expect(new Map(results.map((r) => [r.n, r.S]))).toEqual(known);

    // Every unit counted once: as many units begun as are stored, no duplicate, no conflict.
    let stored = 0;
    for (const n of ALL) for (let d = 0; d < n; d++) stored += await client.store.unitCount(n, d);
    const counters = await client.store.counters();
    expect(counters).toEqual({ starts: stored, duplicates: 0 });
    expect(await client.store.disagreements()).toEqual([]);
  }, 300_000);
});

function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: target.origin,
          Cookie: `wq_csrf=${CSRF}`,
          'X-CSRF-Token': CSRF,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function npmStart(args: readonly string[], env: Record<string, string>): Promise<string> {
  const run = await runNpmStart(args, { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}
