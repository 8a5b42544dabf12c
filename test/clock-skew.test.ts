// One clock: liveness is judged on the Redis server's clock, not the workers'. A worker whose
// clock runs two hours ahead (Debian's faketime, preloaded into its node) is no longer listed
// once it is killed -9 and its TTL has passed, and a verified sweep then runs without it; one ten
// minutes behind is listed while it works; each says how far off it is (`wq status`), and the
// dashboard's timeline puts its units on the server's clock.
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { dashboardUrl, exitOf, spawnDashboardProcess } from '@weak-queens/producer';
import type { TimelineView } from '@weak-queens/dashboard';
import { KNOWN_S, storeKeys } from '@weak-queens/shared/contracts';
import { WORKER_TTL_MS } from '@weak-queens/shared/client';
import { killHard, pipelineFixture, type TestPipeline, until } from './src/index.js';
import { runWq, sumsOf } from './src/wq-cli.js';

/** Debian's libfaketime (scripts/install-test-deps.sh installs the `faketime` package). */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

/** A worker's node with its clock moved by `offset` (faketime's syntax: `+2h`, `-10m`). */
function fakeClock(offset: string): Record<string, string> {
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: offset };
}

/** A worker started on `pipeline` with its clock moved by `offset`, once Redis lists it. */
async function startListedWorker(pipeline: TestPipeline, offset: string) {
  const worker = pipeline.startWorker({ env: fakeClock(offset) });
  await until(
    'the worker to be listed',
    async () => (await pipeline.client.registry.liveWorkers()).length === 1,
  );
  return worker;
}

const TWO_HOURS_MS = 2 * 3600_000;
const TEN_MINUTES_MS = 10 * 60_000;
/** A measured skew is the offset give or take a round trip and a loaded machine's delays. */
const SKEW_SLACK_MS = 1500;

const redis = pipelineFixture();

describe.runIf(existsSync(LIBFAKETIME) || process.env.CI)('when a worker clock is off', () => {
  it('a worker two hours ahead is listed with its skew, and unlisted after the TTL once killed -9', async () => {
    const pipeline = redis.openPipeline('ahead');
    const { client, prefix } = pipeline;
    const ahead = await startListedWorker(pipeline, '+2h');
    const [listed] = await client.registry.liveWorkers();
    expect(listed?.pid).toBe(ahead.pid);
    expect(Math.abs((listed?.clockSkewMs ?? 0) - TWO_HOURS_MS)).toBeLessThan(SKEW_SLACK_MS);
    // Its heartbeat is scored by the server's clock, not two hours into the future.
    const probe = new Redis(redis.url);
    pipeline.defer(() => probe.quit());
    const score = Number(await probe.zscore(storeKeys(prefix).workers, listed?.id ?? ''));
    const [seconds] = await probe.time();
    expect(Math.abs(score - Number(seconds) * 1000)).toBeLessThan(WORKER_TTL_MS);
    // Its start time too is on the server's clock.
    expect(Math.abs(Date.parse(listed?.startedAt ?? '') - Date.now())).toBeLessThan(60_000);
    const status = await runWq(['status'], { url: redis.url, prefix });
    expect(status.stdout).toContain(`  clock 7200 s ahead of Redis\n`);

    await killHard(ahead);
    await until(
      'the killed worker to be unlisted',
      async () => (await client.registry.liveWorkers()).length === 0,
      4 * WORKER_TTL_MS,
    );
    const after = await runWq(['status'], { url: redis.url, prefix });
    expect(after.stdout).toContain('workers: 0 live\n');
  }, 300_000);

  it('a worker ten minutes behind is listed while it works, with its skew', async () => {
    const pipeline = redis.openPipeline('behind');
    const { client, prefix } = pipeline;
    const behind = await startListedWorker(pipeline, '-10m');
    // Still listed several heartbeats later (before, it was pruned at once as ten minutes stale).
    await new Promise((r) => setTimeout(r, 3000));
    const [listed] = await client.registry.liveWorkers();
    expect(listed?.pid).toBe(behind.pid);
    expect(Math.abs((listed?.clockSkewMs ?? 0) + TEN_MINUTES_MS)).toBeLessThan(SKEW_SLACK_MS);
    const status = await runWq(['status'], { url: redis.url, prefix });
    expect(status.stdout).toContain('workers: 1 live\n');
    expect(status.stdout).toContain('  clock 600 s behind Redis\n');
    // And it works: a sweep on it alone is exact.
    const sweep = await runWq(['sweep', '1-7', '--wait', '--json'], { url: redis.url, prefix });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sumsOf(sweep.stdout)).toEqual(KNOWN_S.slice(0, 7));
  }, 300_000);

  it('a verified sweep goes on without a killed worker that was two hours ahead', async () => {
    const pipeline = redis.openPipeline('verify');
    const { client, prefix } = pipeline;
    const ahead = pipeline.startWorker({ env: fakeClock('+2h') });
    pipeline.startWorker();
    await until(
      'both workers to be listed',
      async () => (await client.registry.liveWorkers()).length === 2,
    );
    await killHard(ahead);
    await until(
      'the killed worker to be unlisted',
      async () => (await client.registry.liveWorkers()).length === 1,
      4 * WORKER_TTL_MS,
    );
    // With the dead worker still listed, every second count would first be put back for it.
    const sweep = await runWq(['sweep', '8', '--verify', '--wait', '--json'], {
      url: redis.url,
      prefix,
    });
    expect(sweep.code, sweep.stderr).toBe(0);
    expect((JSON.parse(sweep.stdout.trim()) as { S: string }).S).toBe(KNOWN_S[7]);
    expect(await exitOf(ahead)).toBe(1);
  }, 300_000);

  it("the timeline puts a fast clock's units on the server's clock", async () => {
    const pipeline = redis.openPipeline('timeline');
    const { client, prefix } = pipeline;
    pipeline.startWorker({ env: fakeClock('+2h') });
    pipeline.startWorker();
    await until(
      'both workers to be listed',
      async () => (await client.registry.liveWorkers()).length === 2,
    );
    const sweep = await runWq(['sweep', '1-12', '--wait', '--json'], { url: redis.url, prefix });
    expect(sweep.code, sweep.stderr).toBe(0);
    const id = (await client.registry.list())[0]?.id ?? '';
    const dashboard = spawnDashboardProcess({
      args: ['--port', '0'],
      env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pipeline.defer(async () => {
      dashboard.kill('SIGTERM');
      await exitOf(dashboard);
    });
    const url = await dashboardUrl(dashboard, 30_000);
    const timeline = (await (
      await fetch(new URL(`/api/sweeps/${id}/timeline`, url))
    ).json()) as TimelineView;
    // Both workers counted units of it: one clock two hours ahead of the other.
    expect(new Set(timeline.units.map((u) => u.worker)).size).toBe(2);
    // Unskewed, the makespan would be two hours; the sweep took seconds to minutes.
    expect(timeline.makespan.actualSeconds ?? Infinity).toBeLessThan(3600);
    for (const unit of timeline.units) expect(unit.start).toBeGreaterThanOrEqual(0);
  }, 300_000);
});
