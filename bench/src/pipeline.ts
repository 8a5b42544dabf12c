// `npm run bench -- --pipeline`: the distributed pipeline end to end on this machine. A private
// redis-server and 2 worker processes; S(14) from enqueue until it is in Redis, against the C++
// baseline on 2 threads in the same run (only same-run ratios mean anything on a shared machine),
// and the sweep 1..12 for the queue overhead. Every value is checked against the baseline's.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PipelineClient } from '@weak-queens/shared/client';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig, knownSum } from '@weak-queens/shared/contracts';
import { benchWorkerEnv } from './local-cluster.js';
import { buildBaseline, parseResultLines, type ResultLine } from './baseline.js';
import { measure } from './measure.js';

const WORKERS = 2;
const GOAL_RATIO = 0.5;
const GOAL_SWEEP_SECONDS = 3;
/** Published S(14) (PROBLEM.md), checked besides the baseline's own value. */
const S14 = knownSum(14)?.value ?? 'no published S(14)';

interface Row {
  readonly run: string;
  readonly seconds: number;
  readonly exact: boolean;
}

export async function runPipelineBench(): Promise<boolean> {
  const binary = buildBaseline();
  const dir = mkdtempSync(join(tmpdir(), 'wq-bench-pipeline-'));
  let server: RedisServer | undefined;
  let client: PipelineClient | undefined;
  const workers: ChildProcess[] = [];
  try {
    console.error('  baseline seed-dp 14 14 2 …');
    const base14 = await measure(binary, ['14', '14', '2']);
    const baseLine14 = parseResultLines(base14.stdout)[0];
    console.error('  baseline seed-dp 1 12 2 …');
    const base12 = await measure(binary, ['1', '12', '2']);
    const baseLines12 = parseResultLines(base12.stdout);

    // The same setup as production: AOF on, `noeviction`, one worker process per core.
    server = await RedisServer.start({ dir: join(dir, 'redis') });
    const env = benchWorkerEnv(server.url);
    for (let i = 0; i < WORKERS; i++) {
      workers.push(spawnWorkerProcess({ env, stdio: ['ignore', 'inherit', 'inherit'] }));
    }
    client = new PipelineClient(compileConfig(env));
    await waitForWorkers(client, WORKERS);

    console.error(`  pipeline S(14) on ${WORKERS} workers …`);
    const pipe14 = await timedSweep(client, [14]);
    console.error(`  pipeline sweep 1..12 on ${WORKERS} workers …`);
    const pipe12 = await timedSweep(
      client,
      Array.from({ length: 12 }, (_, i) => i + 1),
    );

    const rows: Row[] = [
      {
        run: 'baseline `seed-dp 14 14 2` (C++, 2 threads)',
        seconds: base14.seconds,
        exact: base14.exitCode === 0 && baseLine14?.S === S14,
      },
      {
        run: `pipeline S(14), ${WORKERS} worker processes`,
        seconds: pipe14.seconds,
        exact:
          sameAs(pipe14.results, baseLine14 ? [baseLine14] : []) && pipe14.results[0]?.S === S14,
      },
      {
        run: 'baseline `seed-dp 1 12 2` (C++, 2 threads)',
        seconds: base12.seconds,
        exact: base12.exitCode === 0 && baseLines12.length === 12,
      },
      {
        run: `pipeline sweep 1..12, ${WORKERS} worker processes`,
        seconds: pipe12.seconds,
        exact: sameAs(pipe12.results, baseLines12),
      },
    ];
    console.log('\n| run | wall s | exact |');
    console.log('|---|---:|---|');
    for (const row of rows) {
      console.log(`| ${row.run} | ${row.seconds.toFixed(2)} | ${row.exact ? 'yes' : 'NO'} |`);
    }
    const ratio = pipe14.seconds / base14.seconds;
    console.log(
      `\n- S(14) end to end on ${WORKERS} workers: ${ratio.toFixed(2)}× the baseline's 2-thread time (goal ≤ ${GOAL_RATIO}×)` +
        `\n- sweep 1..12 end to end: ${pipe12.seconds.toFixed(2)} s (goal ≤ ${GOAL_SWEEP_SECONDS} s)`,
    );
    return (
      rows.every((r) => r.exact) && ratio <= GOAL_RATIO && pipe12.seconds <= GOAL_SWEEP_SECONDS
    );
  } finally {
    await client?.close();
    for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
    await Promise.all(workers.map(exitOf));
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Submit, then poll the result store until every S(n) is there: the user's wall time. */
async function timedSweep(
  client: PipelineClient,
  ns: readonly number[],
): Promise<{ seconds: number; results: ResultLine[] }> {
  const started = performance.now();
  const submission = await client.submit(ns);
  await client.waitFor(submission.sweep.id, { intervalMs: 20 });
  const seconds = (performance.now() - started) / 1000;
  const results = (await client.results(ns)).map((r) => ({
    n: r.n,
    S: r.S ?? 'missing',
    N: r.N.map((v) => v ?? 'missing'),
  }));
  return { seconds, results };
}

/** The workers are up once both heartbeat (they register after their queues are served). */
async function waitForWorkers(client: PipelineClient, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await client.registry.liveWorkers()).length < count) {
    if (Date.now() > deadline) throw new Error(`${count} workers did not start within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function sameAs(results: readonly ResultLine[], expected: readonly ResultLine[]): boolean {
  return (
    results.length === expected.length &&
    results.every((r, i) => {
      const e = expected[i];
      return e !== undefined && r.n === e.n && r.S === e.S && r.N.join() === e.N.join();
    })
  );
}
