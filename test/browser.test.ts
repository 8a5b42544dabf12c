// The dashboard in a real browser: Debian's Chromium driven by playwright-core starts sweep 1..10
// from the form, watches every n reach done, reads S(10) from the results table, downloads the
// CSV, opens the sweep's timeline and saves screenshots to test/screenshots/ (git-ignored).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSIC_QUEENS, KNOWN_S, UNIQUE_QUEENS } from '@weak-queens/shared/contracts';
import type { SweepView, TimelineUnit, TimelineView } from '@weak-queens/dashboard';
import { dashboardUrl, exitOf, spawnDashboardProcess } from '@weak-queens/producer';
import { pipelineFixture } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
// S(1..10), from the shared list of published values.
const S = KNOWN_S.slice(0, 10);
/** Worker slots: one worker with two, one with one (the timeline draws a lane per slot). */
const CONCURRENCY = [2, 1];

describe('when a person uses the dashboard in Chromium', () => {
  const redis = pipelineFixture({ closeAfter: 'all' });
  let prefix: string;
  let dashboard: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let url: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
    }
    const pipeline = redis.openPipeline('browser');
    prefix = pipeline.prefix;
    for (const concurrency of CONCURRENCY) pipeline.startWorker({ concurrency });
    dashboard = spawnDashboardProcess({
      args: ['--port', '0'],
      env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await dashboardUrl(dashboard);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1360, height: 900 },
    });
    page = await context.newPage();
    // Any script error or CSP violation on the page fails the test.
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      // The one 400 is the bad n-spec this test sends on purpose.
      if (msg.type() === 'error' && !/status of 400/.test(msg.text())) {
        problems.push(`console: ${msg.text()}`);
      }
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (dashboard && dashboard.exitCode === null) dashboard.kill('SIGTERM');
    // Closed on SIGTERM, it exits as SIGTERM would have ended it: 128 + 15.
    if (dashboard) expect(await exitOf(dashboard)).toBe(143);
  });

  it('starts sweep 1..10 from the form and shows the exact results', async () => {
    await page.goto(url);
    await page.locator('#connection', { hasText: 'live' }).waitFor();

    // A bad n-spec is refused by the server, with the reason next to the field.
    await page.fill('#ns', '1-99');
    await page.click('#start');
    const error = page.locator('#ns-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.textContent()).toBe(
      'Expected sizes from 1 to 32 as "14", "4-12" or "4,6,10-12".',
    );
    expect(await page.getAttribute('#ns', 'aria-invalid')).toBe('true');

    await page.fill('#ns', '1-10');
    await page.click('#start');
    await page.locator('#form-message', { hasText: /^Sweep s-\S+ started/ }).waitFor();
    expect(await error.isHidden()).toBe(true);

    // Every n reaches done, each with its progress bar full.
    const sweep = page.locator('article.sweep').first();
    for (let n = 1; n <= 10; n++) {
      await sweep.locator(`details.size[data-n="${n}"][data-status="done"]`).waitFor({
        timeout: 90_000,
      });
    }
    await sweep.locator('.sweep-head .pill-done').waitFor();
    expect(await sweep.getAttribute('data-status')).toBe('done');
    const spans = await sweep.locator('details.size > summary .bar > span').all();
    const bars = await Promise.all(spans.map((span) => span.getAttribute('style')));
    expect(bars).toEqual(Array(10).fill('width: 100%;'));

    // The results table holds the exact S(n).
    const s10 = page.locator('#results tr[data-n="10"] td.S');
    await expect.poll(() => s10.textContent(), { timeout: 15_000 }).toBe('10570235486');
    const all = await page.locator('#results tbody td.S').allTextContents();
    expect(all).toEqual(S);

    // The chart has one line per n.
    const legend = await page.locator('#chart .u-legend .u-series').count();
    expect(legend).toBe(11); // the D column and n = 1..10
  });

  it('downloads the results as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#download-csv'),
    ]);
    expect(download.suggestedFilename()).toBe('weak-queens-results.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('n,D,value');
    // One row per (n, D) and one S row per n.
    expect(lines).toHaveLength(1 + (10 * 11) / 2 + 10);
    expect(lines.filter((l) => /^\d+,S,/.test(l))).toEqual(S.map((s, i) => `${i + 1},S,${s}`));
    expect(lines).toContain('4,0,256');
    expect(lines).toContain('10,9,724');
  });

  it('draws the timeline of the finished sweep: a lane per slot, a bar per unit', async () => {
    const sweep = page.locator('article.sweep').first();
    const id = (await sweep.getAttribute('data-sweep')) ?? '';
    await sweep.locator('button[data-action="timeline"]').click();
    const canvas = page.locator('#timeline-panel canvas#timeline');
    await canvas.and(page.locator(`[data-sweep="${id}"]`)).waitFor();

    // What the API says the sweep ran, against what the canvas drew.
    const api = await page.evaluate(async (sweepId) => {
      const get = async (path: string): Promise<unknown> =>
        (await fetch(path, { credentials: 'same-origin' })).json();
      return {
        sweep: (await get(`/api/sweeps/${sweepId}`)) as SweepView,
        timeline: (await get(`/api/sweeps/${sweepId}/timeline`)) as TimelineView,
      };
    }, id);
    const slots = CONCURRENCY.reduce((a, b) => a + b, 0);
    expect(api.sweep.unitsDone).toBe(api.sweep.units);
    expect(api.timeline.total).toBe(api.sweep.unitsDone);
    expect(api.timeline.lanes).toHaveLength(slots);
    expect(api.timeline.lanes.map((l) => l.slot).sort()).toEqual([0, 0, 1]);
    expect(await canvas.getAttribute('data-lanes')).toBe(String(slots));
    expect(await canvas.getAttribute('data-bars')).toBe(String(api.sweep.unitsDone));
    expect(await canvas.getAttribute('data-truncated')).toBe('false');
    const actual = api.timeline.makespan.actualSeconds ?? 0;
    expect(actual).toBeGreaterThan(0);
    expect(api.timeline.makespan.plannedSeconds).toBeGreaterThan(0);
    await page
      .locator('#timeline-facts', { hasText: `${api.sweep.unitsDone} units on ${slots} slots` })
      .waitFor();

    // Hovering the busiest lane's longest bar names its unit.
    const { bar, tip } = await hoverBusiestBar(page, canvas, api.timeline);
    expect(tip).toContain(`N(${bar.n}, ${bar.depth}) unit ${bar.unit}`);

    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = join(SCREENSHOTS, 'timeline.png');
    await page.locator('#timeline-panel').screenshot({ path: file });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  });

  it('shows a classic sweep by its problem: Q(n) per n, its results, a timeline by n', async () => {
    const ns = [4, 5, 6, 7, 8];
    const run = await runWq(['sweep', '4-8', '--problem', 'classic'], { url: redis.url, prefix });
    expect(run.code, run.stderr).toBe(0);
    const sweep = page.locator('article.sweep', { hasText: 'classic n = 4–8' });
    await sweep.locator('.sweep-head .pill-done').waitFor({ timeout: 90_000 });
    const finished = await sweep.locator('details.size > summary .size-S').allTextContents();
    expect(finished).toEqual(
      ns.map((n) => `Q = ${CLASSIC_QUEENS[n - 1]}, unique = ${UNIQUE_QUEENS[n - 1]}`),
    );
    // The classic results panel (reloaded every 10 s) holds the same values.
    const q8 = page.locator('#classic-results tr[data-n="8"] td').nth(1);
    await expect.poll(() => q8.textContent(), { timeout: 15_000 }).toBe(CLASSIC_QUEENS[7]);

    // Its timeline colours the bars by n (Q(n) has no D) and names each unit by its Q(n).
    const id = (await sweep.getAttribute('data-sweep')) ?? '';
    await sweep.locator('button[data-action="timeline"]').click();
    const canvas = page.locator('#timeline-panel canvas#timeline');
    await canvas.and(page.locator(`[data-sweep="${id}"]`)).waitFor();
    const legend = page.locator('#timeline-legend > span:not(.legend-note)');
    expect(await legend.allTextContents()).toEqual(ns.map((n) => `n=${n}`));
    const timeline = await page.evaluate(
      async (sweepId) =>
        (await (await fetch(`/api/sweeps/${sweepId}/timeline`)).json()) as TimelineView,
      id,
    );
    const { bar, tip } = await hoverBusiestBar(page, canvas, timeline);
    expect(tip).toContain(`Q(${bar.n}) unit ${bar.unit}`);
  });

  it('saves a screenshot of the finished sweep', async () => {
    await page.locator('article.sweep details.size[data-n="10"] > summary').click();
    await page.locator('article.sweep details.size[data-n="10"] table.depths').waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = join(SCREENSHOTS, 'dashboard.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(problems).toEqual([]);
  });

  it('opens the Jobs page (bull-board) without a CSP error or a request off this origin', async () => {
    const offOrigin: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(url.replace(/\/$/, ''))) offOrigin.push(request.url());
    });
    await page.goto(new URL('/queues/', url).toString());
    await page.getByText('weak-queens jobs').first().waitFor();
    expect(offOrigin).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** Points at the busiest lane's longest bar; its unit, and what the tooltip then says. */
async function hoverBusiestBar(
  page: Page,
  canvas: Locator,
  timeline: TimelineView,
): Promise<{ bar: TimelineUnit; tip: string | null }> {
  const busiest = timeline.lanes.reduce((a, b) => (b.busySeconds > a.busySeconds ? b : a));
  const lane = timeline.lanes.indexOf(busiest);
  const bar = timeline.units
    .filter((u) => u.worker === busiest.worker && u.slot === busiest.slot)
    .reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a));
  const left = Number(await canvas.getAttribute('data-plot-left'));
  const top = Number(await canvas.getAttribute('data-lane-top'));
  const height = Number(await canvas.getAttribute('data-lane-height'));
  const pxPerSecond = Number(await canvas.getAttribute('data-px-per-second'));
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(
    box.x + left + ((bar.start + bar.end) / 2) * pxPerSecond,
    box.y + top + lane * height + height / 2,
  );
  const tip = page.locator('#timeline-tip');
  await tip.waitFor({ state: 'visible' });
  return { bar, tip: await tip.textContent() };
}
