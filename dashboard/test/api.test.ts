// The JSON API against a real Redis and a real worker: sweeps from start to exact results,
// downloads, live events from one shared poll loop, metrics, and every bad input.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineClient, redisOptions } from '@weak-queens/shared/client';
import { CLASSIC_METHODS, classicUnitKey, classicUnits } from '@weak-queens/shared/kernel';
import {
  CLASSIC_QUEENS,
  type WqConfig,
  KNOWN_S,
  PROTOCOL_VERSION,
  QUEUE_NAMES,
  UNIQUE_QUEENS,
} from '@weak-queens/shared/contracts';
import { startWorkerService, type WorkerService } from '@weak-queens/worker';
import type { DashboardServer, Snapshot, SweepView, TimelineView } from '../src/index.js';
import {
  csrfHeaders,
  eventually,
  http,
  post,
  silent,
  STACK,
  startDashboard,
  redisFixture,
} from './helpers.js';

/** S(1..6), from the one list of reference values. */
const S = KNOWN_S.slice(0, 6);

const redis = redisFixture();

/**
 * Done in both views: `/api/sweeps/:id` reads Redis afresh, while the listing answers from the
 * live feed's snapshot, which may be one refresh older; the tests below read both.
 */
async function sweepDone(base: string, id: string): Promise<SweepView> {
  return eventually(async () => {
    const sweep = (await http(base, `/api/sweeps/${id}`)).json<SweepView>();
    const { sweeps } = (await http(base, '/api/sweeps')).json<{ sweeps: SweepView[] }>();
    const listed = sweeps.find((s) => s.id === id);
    return sweep.status === 'done' && listed?.status === 'done' ? sweep : undefined;
  });
}

describe('when a sweep runs on a worker', () => {
  let config: WqConfig;
  let dashboard: DashboardServer;
  let base: string;
  let worker: WorkerService;
  let sweepId: string;

  beforeAll(async () => {
    config = redis.config();
    ({ server: dashboard, base } = await startDashboard(config));
    await dashboard.metrics.ready();
    worker = await startWorkerService({ config, logger: silent, concurrency: 1, heartbeatMs: 300 });
    const res = await post(base, '/api/sweeps', { ns: '1-6' });
    expect(res.status, res.text).toBe(201);
    sweepId = res.json<{ sweep: { id: string } }>().sweep.id;
    await sweepDone(base, sweepId);
  });
  afterAll(async () => {
    await worker?.close();
    await dashboard?.close();
  });

  it('lists the sweep with every n done and its exact S(n)', async () => {
    const res = await http(base, '/api/sweeps');
    expect(res.status).toBe(200);
    const { sweeps } = res.json<{ sweeps: SweepView[] }>();
    expect(sweeps.map((s) => s.id)).toEqual([sweepId]);
    const sweep = sweeps[0]!;
    expect(sweep.status).toBe('done');
    expect(sweep.done).toBe(6);
    expect(sweep.unitsDone).toBe(sweep.units);
    expect(sweep.sizes.map((s) => s.S)).toEqual(S);
    expect(sweep.sizes.every((s) => s.status === 'done')).toBe(true);
  });

  it('shows each D of a sweep with its status, algorithm, units and N(n, D)', async () => {
    const sweep = (await http(base, `/api/sweeps/${sweepId}`)).json<SweepView>();
    const n4 = sweep.sizes.find((s) => s.n === 4)!;
    expect(n4.depths.map((d) => d.value)).toEqual(['256', '16', '2', '2']);
    for (const d of n4.depths) {
      expect(d.status).toBe('done');
      expect(d.unitsDone).toBe(d.units);
      expect(d.units).toBeGreaterThanOrEqual(1);
      expect(['seed', 'window-transfer', 'dfs']).toContain(d.algorithm);
      expect(d.etaSeconds).toBeNull();
      expect(d.seconds).toBeGreaterThanOrEqual(0);
    }
  });

  it('returns the results as JSON with counts as decimal strings', async () => {
    const res = await http(base, '/api/results?n=4-6');
    expect(res.status).toBe(200);
    const results = res.json<{ n: number; S: string; N: string[] }[]>();
    expect(results.map((r) => r.S)).toEqual(S.slice(3));
    expect(results[0]).toEqual({ n: 4, S: '276', N: ['256', '16', '2', '2'] });
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('returns every stored n when no n is asked for', async () => {
    const results = (await http(base, '/api/results')).json<{ n: number }[]>();
    expect(results.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('downloads the results as CSV and as a JSON file', async () => {
    const csv = await http(base, '/api/results?n=3-4&format=csv&download=1');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="?weak-queens-results\.csv"?$/,
    );
    expect(csv.text).toBe(
      'n,D,value\n3,0,27\n3,1,2\n3,2,0\n3,S,29\n4,0,256\n4,1,16\n4,2,2\n4,3,2\n4,S,276\n',
    );
    const json = await http(base, '/api/results?n=2&download=1');
    expect(json.headers['content-disposition']).toMatch(/weak-queens-results\.json/);
    expect(json.json()).toEqual([{ n: 2, S: '4', N: ['4', '0'] }]);
  });

  it('shows classic results in their own list, exact decimal strings', async () => {
    expect((await http(base, '/api/results/classic')).json()).toEqual({ results: [] });
    const client = new PipelineClient(config);
    let classicId = '';
    try {
      classicId = (await client.submitClassic([8, 10])).sweepId;
      await client.waitForClassic([8, 10], { timeoutMs: 30_000 });
    } finally {
      await client.close();
    }
    // The classic sweep is listed with the weak ones, done, with its counts.
    const listed = (await http(base, `/api/sweeps/${classicId}`)).json<SweepView>();
    expect(listed.problem).toBe('classic');
    expect(listed.status).toBe('done');
    expect(listed.sizes.map(({ n, S, Q, unique }) => ({ n, S, Q, unique }))).toEqual([
      { n: 8, S: null, Q: CLASSIC_QUEENS[7], unique: UNIQUE_QUEENS[7] },
      { n: 10, S: null, Q: CLASSIC_QUEENS[9], unique: UNIQUE_QUEENS[9] },
    ]);
    const { results } = (await http(base, '/api/results/classic')).json<{
      results: { n: number; Q: string; unique: string; units: number }[];
    }>();
    expect(results.map(({ n, Q, unique }) => ({ n, Q, unique }))).toEqual([
      { n: 8, Q: CLASSIC_QUEENS[7], unique: UNIQUE_QUEENS[7] },
      { n: 10, Q: CLASSIC_QUEENS[9], unique: UNIQUE_QUEENS[9] },
    ]);
    // The weak results are untouched by them.
    const weak = (await http(base, '/api/results')).json<{ n: number }[]>();
    expect(weak.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('lists the live worker with its host, pid, memory, version, jobs done and busy share', async () => {
    const worker = await eventually(async () => {
      const { workers } = (await http(base, '/api/workers')).json<Snapshot>();
      const w = workers[0];
      return w && (w.jobsDone ?? 0) > 0 ? w : undefined;
    });
    expect(worker.pid).toBe(process.pid);
    expect(worker.concurrency).toBe(1);
    expect(worker.memoryBytes).toBe(config.workerMemoryBytes);
    expect(worker.slotBytes).toBe(config.slotMemoryBytes);
    expect(worker.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(worker.host.length).toBeGreaterThan(0);
    expect(worker.busyShare).toBeGreaterThanOrEqual(0);
    expect(worker.busyShare).toBeLessThanOrEqual(1);
  });

  it("lists a worker of another build's protocol apart, as taking none of these jobs", async () => {
    const client = new PipelineClient(config);
    const other = { id: 'old-build-1', host: 'old-build', pid: 1, concurrency: 2 };
    try {
      const now = new Date().toISOString();
      // A heartbeat as a build before protocols sends it: no protocol, no build.
      await client.registry.heartbeat({ ...other, version: '0.1.0', startedAt: now, active: [] });
      // The page's snapshot is read on a poll: the heartbeat shows in the next one.
      const workers = await eventually(async () => {
        const listed = (await http(base, '/api/workers')).json<Snapshot>().workers;
        return listed.length === 2 ? listed : undefined;
      });
      expect(
        workers.map(({ id, protocol, otherProtocol }) => ({ id, protocol, otherProtocol })),
      ).toEqual([
        { id: workers[0]?.id, protocol: PROTOCOL_VERSION, otherProtocol: false },
        { id: other.id, protocol: 1, otherProtocol: true },
      ]);
      // This build's worker names its build (its version, and its commit where it has one).
      expect(workers[0]?.build).toMatch(/^\d+\.\d+\.\d+(\+[0-9a-f]+)?$/);
      expect(workers[1]?.build).toBeNull();
    } finally {
      await client.registry.removeWorker(other.id);
      await client.close();
    }
  });

  it('exports Prometheus metrics from prom-client and from BullMQ', async () => {
    const res = await http(base, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    // BullMQ's export for both queues, each family declared once.
    expect(text.match(/^# TYPE bullmq_job_count gauge$/gm)).toHaveLength(1);
    const { count, aggregate } = QUEUE_NAMES;
    expect(text).toMatch(
      new RegExp(`^bullmq_job_count\\{queue="${count}", state="completed"\\} \\d+$`, 'm'),
    );
    expect(text).toMatch(
      new RegExp(`^bullmq_job_count\\{queue="${aggregate}", state="failed"\\} 0$`, 'm'),
    );
    expect(text).toMatch(
      new RegExp(`^bullmq_job_completed_total\\{queue="${count}"\\} [1-9]\\d*$`, 'm'),
    );
    // Unit durations and per-worker throughput seen on the queue events.
    const units = Number(/^wq_unit_duration_seconds_count\{[^}]*\} (\d+)$/m.exec(text)?.[1]);
    expect(units).toBeGreaterThan(0);
    expect(text).toMatch(
      new RegExp(`^wq_units_completed_total\\{worker="${worker.id}"\\} \\d+$`, 'm'),
    );
    expect(text).toMatch(/^wq_workers_live 1$/m);
    expect(text).toMatch(new RegExp(`^wq_worker_jobs_done\\{worker="${worker.id}"\\} \\d+$`, 'm'));
    expect(text).toMatch(/^wq_dashboard_process_cpu_seconds_total /m);
  });

  it('pushes snapshots to every open page from one shared poll loop', async () => {
    const streams = await Promise.all([0, 1, 2].map(() => openEvents(base)));
    try {
      const before = dashboard.feed.reads;
      const firsts = await Promise.all(streams.map((s) => s.next()));
      for (const first of firsts) {
        expect(first.event).toBe('snapshot');
        // The weak sweep, behind the classic one submitted after it.
        expect((JSON.parse(first.data) as Snapshot).sweeps.map((s) => s.id)).toContain(sweepId);
      }
      await new Promise((r) => setTimeout(r, 1000));
      // pollMs is 200: one loop makes about 5 reads a second, three loops would make 15.
      expect(dashboard.feed.reads - before).toBeLessThanOrEqual(8);
      expect(dashboard.feed.clientCount).toBe(3);
    } finally {
      for (const s of streams) s.close();
    }
    await eventually(() => (dashboard.feed.clientCount === 0 ? true : undefined));
  });

  it('serves the page, its script, and uPlot from the app itself', async () => {
    const page = await http(base, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="/app.js"></script>');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.headers['set-cookie']?.[0]).toMatch(
      /^wq_csrf=[0-9a-f]{64}; Path=\/; SameSite=Strict$/,
    );
    const app = await http(base, '/app.js');
    expect(app.headers['content-type']).toMatch(/^text\/javascript/);
    expect(app.text).toContain("from './weak-results.js'");
    // The module that draws the chart loads uPlot from the app, not from a CDN.
    const results = await http(base, '/weak-results.js');
    expect(results.headers['content-type']).toMatch(/^text\/javascript/);
    expect(results.text).toContain('/vendor/uPlot.esm.js');
    const uplot = await http(base, '/vendor/uPlot.esm.js');
    expect(uplot.status).toBe(200);
    expect(uplot.text).toContain('export { uPlot as default }');
    expect((await http(base, '/vendor/uPlot.min.css')).status).toBe(200);
  });

  it('sends a CSP without inline script and other safe headers', async () => {
    for (const path of ['/', '/api/sweeps', '/metrics']) {
      const res = await http(base, path);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    expect((await http(base, '/api/results')).headers['cache-control']).toBe('no-store');
  });

  it('mounts bull-board read-only at /queues', async () => {
    const page = await http(base, '/queues/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('__UI_CONFIG__');
    // Nothing its CSP refuses: its <base href> is allowed, its remote web-font stylesheet gone.
    expect(page.text).toContain('<base href="/queues/');
    expect(page.text).not.toContain('fonts.googleapis.com');
    expect(page.headers['content-security-policy']).toContain("base-uri 'self'");
    const queues = await http(base, '/queues/api/queues');
    expect(queues.status).toBe(200);
    const names = queues.json<{ queues: { name: string; readOnlyMode: boolean }[] }>().queues;
    expect(names.map((q) => q.name).sort()).toEqual([QUEUE_NAMES.aggregate, QUEUE_NAMES.count]);
    expect(names.every((q) => q.readOnlyMode)).toBe(true);
    const pause = await http(base, `/queues/api/queues/${QUEUE_NAMES.count}/pause`, {
      method: 'PUT',
      headers: { Origin: base },
    });
    expect(pause.status).toBe(403);
    expect(pause.json()).toEqual({
      error: { code: 'read_only', message: 'bull-board is read-only without DASHBOARD_TOKEN' },
    });
  });
});

describe('while a sweep runs', () => {
  let client: PipelineClient;
  let dashboard: DashboardServer;
  let base: string;
  let worker: WorkerService;

  beforeAll(async () => {
    const config = redis.config();
    client = new PipelineClient(config);
    ({ server: dashboard, base } = await startDashboard(config));
    worker = await startWorkerService({ config, logger: silent, concurrency: 1, heartbeatMs: 300 });
  });
  afterAll(async () => {
    await worker?.close();
    await dashboard?.close();
    await client?.close();
  });

  it('lists it with the rate-based ETA that wq status shows, not the pace in units', async () => {
    // Small units, so that the sweep runs for seconds with most of them left.
    const { sweep } = await client.submit([15], { targetSeconds: 0.05 });
    const [page, status] = await eventually(async () => {
      const listed = (await http(base, '/api/sweeps')).json<{ sweeps: SweepView[] }>();
      const shown = listed.sweeps.find((s) => s.id === sweep.id);
      const report = (await client.status()).sweeps.find((s) => s.sweep.id === sweep.id);
      return shown?.status === 'running' &&
        shown.unitsDone >= 20 &&
        shown.etaSeconds !== null &&
        // Read with the ETA, every tenth poll: past the first read once some work is done.
        shown.workDone !== null &&
        shown.workDone > 0 &&
        report?.etaSeconds != null &&
        report.workDone !== undefined
        ? ([
            { eta: shown.etaSeconds, work: shown.workDone },
            { eta: report.etaSeconds, work: report.workDone },
          ] as const)
        : undefined;
    });
    // One reader: the page's figure is wq status's, read at most ten polls (2 s here) earlier.
    expect(
      Math.abs(page.eta - status.eta),
      `page ${page.eta} s, wq status ${status.eta} s`,
    ).toBeLessThanOrEqual(Math.max(3, 0.25 * status.eta));
    // The share of the work done, by core-seconds, on both: part way, and the same reading.
    for (const work of [page.work, status.work]) {
      expect(work).toBeGreaterThan(0);
      expect(work).toBeLessThan(1);
    }
    expect(Math.abs(page.work - status.work)).toBeLessThanOrEqual(0.25);
    // And /metrics, from the page's reader.
    const metrics = (await http(base, '/metrics')).text;
    const exported = Number(
      new RegExp(`^wq_sweep_work_done_ratio\\{sweep="${sweep.id}"\\} (\\S+)$`, 'm').exec(
        metrics,
      )?.[1],
    );
    expect(exported).toBeGreaterThan(0);
    expect(exported).toBeLessThanOrEqual(1);
    expect(metrics).toMatch(
      new RegExp(`^wq_sweep_eta_seconds\\{sweep="${sweep.id}"\\} \\S+$`, 'm'),
    );
    await client.cancel(sweep.id);
  });
});

describe('when a verified classic sweep runs on a worker with two slots', () => {
  let config: WqConfig;
  let dashboard: DashboardServer;
  let base: string;
  let worker: WorkerService;
  let classicId: string;

  beforeAll(async () => {
    config = redis.config('classic-timeline');
    ({ server: dashboard, base } = await startDashboard(config));
    worker = await startWorkerService({ config, logger: silent, concurrency: 2, heartbeatMs: 300 });
    const client = new PipelineClient(config);
    try {
      classicId = (await client.submitClassic([8, 10], { verify: true })).sweepId;
      await client.waitForClassic([8, 10], { timeoutMs: 30_000 });
    } finally {
      await client.close();
    }
  });
  afterAll(async () => {
    await worker?.close();
    await dashboard?.close();
  });

  it('draws a lane per slot and a bar per unit and second count, by n, with no plan', async () => {
    const res = await http(base, `/api/sweeps/${classicId}/timeline`);
    expect(res.status, res.text).toBe(200);
    const view = res.json<TimelineView>();
    expect(view.sweepId).toBe(classicId);
    expect(view.problem).toBe('classic');
    expect(view.ns).toEqual([8, 10]);
    expect(view.lanes.map(({ worker, slot }) => ({ worker, slot }))).toEqual([
      { worker: worker.id, slot: 0 },
      { worker: worker.id, slot: 1 },
    ]);
    // Every unit of Q(8) and Q(10) counted twice (verify: every unit is in the sample).
    const units = { 8: classicUnits(8).length, 10: classicUnits(10).length };
    expect(units).toEqual({ 8: 16, 10: 29 });
    expect(view.total).toBe(90);
    expect(view.truncated).toBe(false);
    expect(view.lanes.reduce((t, l) => t + l.units, 0)).toBe(90);
    const keys = (n: 8 | 10, role: 'primary' | 'check') =>
      view.units
        .filter((u) => u.n === n && u.role === role)
        .map((u) => u.unit)
        .sort();
    for (const n of [8, 10] as const) {
      const all = classicUnits(n).map(classicUnitKey).sort();
      expect(keys(n, 'primary')).toEqual(all);
      expect(keys(n, 'check')).toEqual(all);
    }
    for (const u of view.units) {
      expect(u.depth).toBeNull();
      expect(u.estimateSeconds).toBeNull();
      expect(u.worker).toBe(worker.id);
      expect([0, 1]).toContain(u.slot);
      expect(CLASSIC_METHODS).toContain(u.algorithm);
      expect(u.end).toBeGreaterThanOrEqual(u.start);
    }
    expect(view.units.map((u) => u.start)).toEqual(
      view.units.map((u) => u.start).sort((a, b) => a - b),
    );
    expect(view.units[0]?.start).toBe(0);
    expect(view.makespan.plannedSeconds).toBeNull();
    expect(view.makespan.estimatedCoreSeconds).toBeNull();
    expect(view.makespan.slots).toBe(2);
    expect(view.makespan.actualSeconds).toBe(Math.max(...view.units.map((u) => u.end)));
    expect(view.overruns).toEqual([]);
    expect(view.skipped).toEqual({ untimed: 0, otherSweeps: 0 });
  });

  it('draws no bar for a later sweep that reuses those units, and says why', async () => {
    const client = new PipelineClient(config);
    let laterId = '';
    try {
      // Both counts of Q(8) are stored: nothing is enqueued, the sweep is recorded all the same.
      laterId = (await client.submitClassic([8], { verify: true })).sweepId;
    } finally {
      await client.close();
    }
    const view = (await http(base, `/api/sweeps/${laterId}/timeline`)).json<TimelineView>();
    expect(view.units).toEqual([]);
    expect(view.origin).toBeNull();
    expect(view.makespan.actualSeconds).toBeNull();
    expect(view.lanes.map((l) => l.units)).toEqual([0, 0]);
    expect(view.skipped).toEqual({ untimed: 0, otherSweeps: 32 });
  });
});

describe('when a unit fails and the sweep is retried from the dashboard', () => {
  let config: WqConfig;
  let dashboard: DashboardServer;
  let base: string;
  let worker: WorkerService | undefined;
  let queue: Queue;

  beforeAll(async () => {
    config = redis.config();
    ({ server: dashboard, base } = await startDashboard(config));
    queue = new Queue(QUEUE_NAMES.count, {
      connection: redisOptions(config, 'producer'),
      prefix: config.prefix,
    });
  });
  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await dashboard?.close();
  });

  it('cancels a queued sweep, shows it cancelled, and retries it', async () => {
    const submitted = await post(base, '/api/sweeps', { ns: '7', targetSeconds: 10 });
    const id = submitted.json<{ sweep: { id: string } }>().sweep.id;
    expect((await http(base, `/api/sweeps/${id}`)).json<SweepView>().status).toBe('queued');
    const cancelled = await post(base, `/api/sweeps/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.json()).toEqual({ id, removed: [7], left: [] });
    const view = (await http(base, `/api/sweeps/${id}`)).json<SweepView>();
    expect(view.status).toBe('cancelled');
    expect(view.cancelledAt).not.toBeNull();
    expect(view.sizes[0]?.depths.every((d) => d.status === 'cancelled')).toBe(true);
    const retried = await post(base, `/api/sweeps/${id}/retry`, {});
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json<{ added: number }>().added).toBeGreaterThan(0);
    expect((await http(base, `/api/sweeps/${id}`)).json<SweepView>().status).toBe('queued');
  });

  it('shows the failed n with the reason, and a retry finishes it exactly', async () => {
    const submitted = await post(base, '/api/sweeps', { ns: '5' });
    const id = submitted.json<{ sweep: { id: string } }>().sweep.id;
    // A payload no worker accepts: the unit fails without retries, and its n with it.
    const jobs = await queue.getJobs(['waiting', 'prioritized']);
    const job = jobs.find((j) => (j.data as { depth: number }).depth === 2);
    expect(job?.id).toMatch(/^n5-d2(-p[0-9a-f]+-u\d+)?$/);
    await job!.updateData({ ...(job!.data as object), depth: 99 });
    worker = await startWorkerService({ config, logger: silent, concurrency: 1, heartbeatMs: 300 });
    const failed = await eventually(async () => {
      const sweep = (await http(base, `/api/sweeps/${id}`)).json<SweepView>();
      return sweep.status === 'failed' ? sweep : undefined;
    });
    const n5 = failed.sizes[0]!;
    expect(n5.status).toBe('failed');
    expect(n5.reason).toMatch(new RegExp(`^${job!.id}: unit job\\.D: 99 is not allowed`));
    expect(n5.depths[2]?.status).toBe('failed');
    const retried = await post(base, `/api/sweeps/${id}/retry`, {});
    expect(retried.status, retried.text).toBe(200);
    const done = await sweepDone(base, id);
    expect(done.sizes[0]?.S).toBe(S[4]);
    expect(done.sizes[0]?.depths.map((d) => d.value)).toEqual(['3125', '184', '18', '10', '10']);
  });
});

describe('when the input is bad', () => {
  let dashboard: DashboardServer;
  let base: string;
  let sweepId: string;

  beforeAll(async () => {
    const config = redis.config();
    ({ server: dashboard, base } = await startDashboard(config));
    sweepId = (await post(base, '/api/sweeps', { ns: '3' })).json<{ sweep: { id: string } }>().sweep
      .id;
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  const gets: [string, number, string | undefined][] = [
    ['/api/sweeps?limit=0', 400, 'limit'],
    ['/api/sweeps?limit=201', 400, 'limit'],
    ['/api/sweeps?limit=ten', 400, 'limit'],
    ['/api/sweeps?limit=1&limit=2', 400, 'limit'],
    ['/api/sweeps?sort=id', 400, 'query parameter'],
    ['/api/sweeps/bad!id', 400, 'id'],
    ['/api/sweeps/' + 'x'.repeat(65), 400, 'id'],
    ['/api/sweeps/s-nosuchsweep', 404, 'id'],
    ['/api/sweeps/s-nosuchsweep?x=1', 400, 'query parameter'],
    ['/api/results?n=0', 400, 'n'],
    ['/api/results?n=1-40', 400, 'n'],
    ['/api/results?n=5-3', 400, 'n'],
    ['/api/results?n=abc', 400, 'n'],
    ['/api/results?format=xml', 400, 'format'],
    ['/api/results?download=yes', 400, 'download'],
    ['/api/results?n=3&n=4', 400, 'n'],
    ['/api/results?x=1', 400, 'query parameter'],
    ['/api/workers?all=1', 400, 'query parameter'],
    ['/api/nothing-here', 404, undefined],
    ['/nothing-here', 404, undefined],
  ];
  it.each(gets)('GET %s answers %i naming %s', async (path, status, field) => {
    const res = await http(base, path);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<{ error: { code: string; message: string; field?: string } }>();
    expect(body.error.field).toBe(field);
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(res.text).not.toMatch(STACK);
  });

  const bodies: [string, string, number, string | undefined][] = [
    ['not JSON', '{"ns": ', 400, 'body'],
    ['an array', '["1-10"]', 400, 'body'],
    ['null', 'null', 400, 'body'],
    ['no ns', '{}', 400, 'ns'],
    ['ns as a number', '{"ns": 10}', 400, 'ns'],
    ['ns of 0', '{"ns": "0"}', 400, 'ns'],
    ['ns beyond the largest n', '{"ns": "1-40"}', 400, 'ns'],
    ['a reversed range', '{"ns": "9-3"}', 400, 'ns'],
    ['words', '{"ns": "ten"}', 400, 'ns'],
    ['a huge ns', JSON.stringify({ ns: '1,'.repeat(150) + '1' }), 400, 'ns'],
    ['an unknown field', '{"ns": "3", "priority": 1}', 400, 'body'],
    ['a negative target', '{"ns": "3", "targetSeconds": -1}', 400, 'targetSeconds'],
    ['a zero target', '{"ns": "3", "targetSeconds": 0}', 400, 'targetSeconds'],
    ['a target as text', '{"ns": "3", "targetSeconds": "10"}', 400, 'targetSeconds'],
    ['a target of a year', '{"ns": "3", "targetSeconds": 31536000}', 400, 'targetSeconds'],
    ['a body over 4 kB', JSON.stringify({ ns: '3', pad: 'x'.repeat(5000) }), 413, 'body'],
  ];
  it.each(bodies)(
    'POST /api/sweeps with %s answers %i naming %s',
    async (_, body, status, field) => {
      const res = await post(base, '/api/sweeps', body);
      expect(res.status).toBe(status);
      const error = res.json<{ error: { field?: string; allowed?: string } }>().error;
      expect(error.field).toBe(field);
      expect(res.text).not.toMatch(STACK);
    },
  );

  it('says what an n-spec may be, for the page to show next to the field', async () => {
    const res = await post(base, '/api/sweeps', { ns: '1-99' });
    expect(res.json()).toEqual({
      error: {
        code: 'invalid_input',
        message:
          'ns: "1-99" is not allowed; expected sizes from 1 to 32 as "14", "4-12" or "4,6,10-12"',
        field: 'ns',
        allowed: 'sizes from 1 to 32 as "14", "4-12" or "4,6,10-12"',
      },
    });
  });

  it('refuses a body sent as text, and a cancel or retry with a body', async () => {
    const text = await post(
      base,
      '/api/sweeps',
      'ns=3',
      csrfHeaders(base, { 'Content-Type': 'text/plain' }),
    );
    expect(text.status).toBe(400);
    expect(text.json<{ error: { field: string } }>().error.field).toBe('body');
    for (const action of ['cancel', 'retry']) {
      const res = await post(base, `/api/sweeps/${sweepId}/${action}`, { force: true });
      expect(res.status).toBe(400);
      expect(res.json<{ error: { field: string } }>().error.field).toBe('body');
    }
  });

  it('answers 404 to a cancel or retry of an unknown sweep', async () => {
    for (const action of ['cancel', 'retry']) {
      const res = await post(base, `/api/sweeps/s-nosuch/${action}`, {});
      expect(res.status).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('not_found');
    }
  });

  it('refuses a Host header that is not this machine (DNS rebinding)', async () => {
    const res = await http(base, '/api/sweeps', { headers: { Host: 'attacker.example:3000' } });
    expect(res.status).toBe(421);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('wrong_host');
    expect((await http(base, '/api/sweeps', { headers: { Host: 'localhost:3000' } })).status).toBe(
      200,
    );
  });
});

/** A minimal EventSource over fetch: reads `event:`/`data:` blocks from the stream. */
async function openEvents(base: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next(): Promise<{ event: string; data: string }> {
      for (;;) {
        const blocks = buffer.split('\n\n');
        while (blocks.length > 1) {
          const block = blocks.shift()!;
          buffer = blocks.join('\n\n');
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) return { event, data };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += value;
      }
    },
    close(): void {
      controller.abort();
      reader.cancel().catch(() => undefined);
    },
  };
}
