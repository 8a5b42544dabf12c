// `npm run bench -- --sse`: the dashboard under 1,000 event-stream clients that never read. A
// private redis-server holds a few queued sweeps (no worker), so the snapshot changes every
// second as during a run; the dashboard runs as its own process with default settings. With the
// stalled clients connected, a real page (`GET /`, then `/api/events` up to its first snapshot)
// is loaded every 2 s; the dashboard's RSS and the kernel's send queues on its port are sampled.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PipelineClient } from '@weak-queens/shared/client';
import { compileConfig } from '@weak-queens/shared/contracts';
import { RedisServer } from '@weak-queens/shared/process';
import { dashboardUrl, exitOf, spawnDashboardProcess } from '@weak-queens/producer';

const STALLED = 1000;
/** About the 24 KB snapshot of the deployment where stalled clients were first seen. */
const SWEEPS = 3;
const PROBES = 15;
const PROBE_EVERY_MS = 2000;
/** How long after the stalled clients leave the dashboard's RSS is read again. */
const SETTLE_MS = 15_000;
const GOALS = { pageSeconds: 1, rssMiB: 200 };

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** The bytes queued in the kernel on the dashboard's side of its connections (`ss`). */
function sendQueueBytes(port: number): number {
  try {
    const out = execFileSync('ss', ['-tnH', 'state', 'established', `( sport = :${port} )`], {
      encoding: 'utf8',
    });
    return out
      .split('\n')
      .map((line) => Number(line.trim().split(/\s+/)[1] ?? 0))
      .reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  } catch {
    return NaN;
  }
}

/** Sends the request and never reads: what the dashboard sends stays in the kernel. */
function stalledClient(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A real page: the HTML, then the event stream up to its first snapshot; seconds of each. */
async function loadPage(base: string): Promise<{ page: number; snapshot: number }> {
  const started = performance.now();
  const html = await fetch(base);
  await html.text();
  if (html.status !== 200) throw new Error(`GET / answered ${html.status}`);
  const page = (performance.now() - started) / 1000;
  const controller = new AbortController();
  const streamStarted = performance.now();
  const res = await fetch(new URL('/api/events', base), { signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`/api/events answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (!/^event: snapshot$/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended before its first snapshot');
      text += value;
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }
  return { page, snapshot: (performance.now() - streamStarted) / 1000 };
}

export async function runSseBench(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'wq-bench-sse-'));
  const server = await RedisServer.start({ dir: join(dir, 'redis'), appendOnly: false });
  const env = { ...process.env, REDIS_URL: server.url, WQ_PREFIX: '{wq-bench}', LOG_LEVEL: 'warn' };
  const client = new PipelineClient(compileConfig(env));
  let dashboard: ChildProcess | undefined;
  const sockets: Socket[] = [];
  try {
    // Queued sweeps with no worker: their elapsed time changes the snapshot at every poll.
    for (let i = 0; i < SWEEPS; i++) await client.submit([8, 9, 10, 11, 12]);
    dashboard = spawnDashboardProcess({
      args: ['--port', '0'],
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const base = await dashboardUrl(dashboard);
    dashboard.stdout?.resume();
    const pid = dashboard.pid!;
    const url = new URL(base);
    const port = Number(url.port);
    const snapshotBytes = Buffer.byteLength(
      JSON.stringify(await (await fetch(new URL('/api/sweeps', base))).json()),
    );
    const idle = await loadPage(base);
    const rssBefore = rssBytes(pid);

    let peakRss = rssBefore;
    let peakQueue = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssBytes(pid));
      peakQueue = Math.max(peakQueue, sendQueueBytes(port) || 0);
    }, 250);
    console.error(`  ${STALLED} clients that never read …`);
    const opened = performance.now();
    for (let i = 0; i < STALLED; i += 100) {
      const batch = Array.from({ length: Math.min(100, STALLED - i) }, () => stalledClient(url));
      sockets.push(...(await Promise.all(batch)));
    }
    const openSeconds = (performance.now() - opened) / 1000;
    console.error(`  a real page every ${PROBE_EVERY_MS / 1000} s, ${PROBES} times …`);
    const loads: { page: number; snapshot: number }[] = [];
    const refused: string[] = [];
    for (let i = 0; i < PROBES; i++) {
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      await loadPage(base).then(
        (load) => loads.push(load),
        (err: unknown) => refused.push(err instanceof Error ? err.message : String(err)),
      );
    }
    const rssLoaded = rssBytes(pid);
    const queueLoaded = sendQueueBytes(port);
    // A socket that does not read does not see the server cut it: read to find out.
    const cut = await Promise.all(
      sockets.map(
        (s) =>
          new Promise<boolean>((resolve) => {
            s.once('close', () => resolve(true));
            s.on('error', () => undefined);
            s.on('data', () => undefined);
            setTimeout(() => resolve(false), 2000);
            s.resume();
          }),
      ),
    );
    const cutCount = cut.filter(Boolean).length;
    for (const s of sockets.splice(0)) s.destroy();
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rssAfter = rssBytes(pid);
    const queueAfter = sendQueueBytes(port);

    const worst = (xs: number[]): number => (xs.length ? Math.max(...xs) : NaN);
    const worstPage = worst(loads.map((l) => l.page));
    const worstSnapshot = worst(loads.map((l) => l.snapshot));
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
    const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
    const ms = (s: number): string => `${(s * 1000).toFixed(0)} ms`;
    const pageOk = refused.length === 0 && worstPage + worstSnapshot < GOALS.pageSeconds;
    const rssOk = peakRss < GOALS.rssMiB * 2 ** 20;
    console.log(
      [
        `| measure | value | goal |`,
        `| --- | ---: | --- |`,
        `| snapshot size (\`/api/sweeps\` JSON, ${SWEEPS} queued sweeps) | ${(snapshotBytes / 1024).toFixed(1)} KiB | |`,
        `| stalled clients connected | ${STALLED} in ${openSeconds.toFixed(2)} s | |`,
        `| of them cut by the dashboard by the end | ${cutCount} | all but the feed's 100 slots or fewer |`,
        `| real page before: \`GET /\`, first snapshot | ${ms(idle.page)}, ${ms(idle.snapshot)} | |`,
        `| real page with them (${PROBES} loads): \`GET /\` median / worst | ${ms(median(loads.map((l) => l.page)))} / ${ms(worstPage)} | |`,
        `| real page with them: first snapshot median / worst | ${ms(median(loads.map((l) => l.snapshot)))} / ${ms(worstSnapshot)} | \`GET /\` + snapshot < ${GOALS.pageSeconds} s |`,
        `| real page loads that failed | ${refused.length}${refused[0] ? ` (${refused[0]})` : ''} | 0 |`,
        `| dashboard RSS: before / peak / at the end / ${SETTLE_MS / 1000} s after they left | ${mib(rssBefore)} / ${mib(peakRss)} / ${mib(rssLoaded)} / ${mib(rssAfter)} MiB | peak < ${GOALS.rssMiB} MiB |`,
        `| kernel send queues on its port: peak / at the end / after | ${mib(peakQueue)} / ${mib(queueLoaded)} / ${mib(queueAfter)} MiB | |`,
      ].join('\n'),
    );
    console.log(`- goal: a real page in < ${GOALS.pageSeconds} s: ${pageOk ? 'met' : 'MISSED'}`);
    console.log(`- goal: dashboard RSS < ${GOALS.rssMiB} MiB: ${rssOk ? 'met' : 'MISSED'}`);
    return pageOk && rssOk;
  } finally {
    for (const s of sockets) s.destroy();
    if (dashboard && dashboard.exitCode === null) {
      dashboard.kill('SIGTERM');
      await exitOf(dashboard);
    }
    await client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
