// The dashboard page: renders the snapshots the server pushes over Server-Sent Events, the
// results table and the chart, and sends the start / cancel / retry requests. Everything from
// the server is written with textContent, never as HTML.
import type uPlotType from 'uplot';
import type { DepthView, SizeView, Snapshot, SweepView, WorkerView } from '../src/snapshot.js';
import type { TimelineUnit, TimelineView } from '../src/timeline.js';
import { overBy, seconds, TimelineChart, unitName } from './timeline-chart.js';

interface ClassicView {
  readonly n: number;
  readonly Q: string;
  readonly unique: string;
  readonly units: number;
  readonly checked: number;
}

interface SizeResult {
  readonly n: number;
  readonly S: string | null;
  readonly N: readonly (string | null)[];
}

interface ApiError {
  readonly error?: { code?: string; message?: string; field?: string; allowed?: string };
}

// uPlot's ES module, served by the dashboard from node_modules (no CDN); a variable keeps the
// compiler from resolving the URL as a module name.
const UPLOT_URL = '/vendor/uPlot.esm.js';
const { default: uPlot } = (await import(UPLOT_URL)) as { default: typeof uPlotType };

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
};

type Child = Node | string | null | undefined | false;

/** A DOM element with attributes and children; strings become text nodes (never HTML). */
function h(tag: string, attrs: Record<string, string | boolean> = {}, ...children: Child[]) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/**
 * Fills the body of table #`table` with a row per item, and shows its note #`empty` ("none
 * yet") only when there are none, so every table of the page says the same about nothing.
 */
function fillTable<T>(
  table: string,
  empty: string,
  items: readonly T[],
  row: (item: T) => HTMLElement,
): void {
  $(empty).hidden = items.length > 0;
  $(table)
    .querySelector('tbody')
    ?.replaceChildren(...items.map(row));
}

function csrfToken(): string {
  const match = /(?:^|;\s*)wq_csrf=([0-9a-f]+)/.exec(document.cookie);
  return match?.[1] ?? '';
}

async function post(path: string, body: unknown): Promise<{ ok: boolean; data: unknown }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = { error: { message: `HTTP ${res.status}` } };
  }
  return { ok: res.ok, data };
}

function errorOf(data: unknown): NonNullable<ApiError['error']> {
  return (data as ApiError | null)?.error ?? { message: 'unexpected answer' };
}

// ---- formatting ----

function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function ago(iso: string): string {
  return duration((Date.now() - Date.parse(iso)) / 1000);
}

/** `n14-d9-p<plan>-u3` → `n=14 D=9 #3`. */
function jobLabel(id: string): string {
  const m = /^n(\d+)-d(\d+)(?:-p[0-9a-f]+-u(\d+))?$/.exec(id);
  if (!m) return id;
  return `n=${m[1]} D=${m[2]}${m[3] === undefined ? '' : ` #${m[3]}`}`;
}

/** 10570235486 → 10 570 235 486 (thin spaces; copy gives the plain digits via data-value). */
function grouped(value: string): string {
  return value.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

function pill(status: string): HTMLElement {
  return h('span', { class: `pill pill-${status}` }, status);
}

function bar(fraction: number, status: string, small = false): HTMLElement {
  const fill = h('span');
  fill.style.width = `${Math.max(0, Math.min(1, fraction)) * 100}%`;
  return h('div', { class: `bar ${status}${small ? ' small' : ''}`, role: 'progressbar' }, fill);
}

// ---- sweeps ----

const openSizes = new Set<string>();
const sweepMessages = new Map<string, string>();

function renderSweeps(sweeps: readonly SweepView[]): void {
  const root = $('sweeps');
  if (sweeps.length === 0) {
    root.replaceChildren(
      h('p', { class: 'empty' }, 'No sweeps yet: start one above or with wq sweep.'),
    );
    return;
  }
  root.replaceChildren(...sweeps.map(sweepCard));
}

function sweepCard(sweep: SweepView): HTMLElement {
  const canCancel = sweep.status === 'running' || sweep.status === 'queued';
  const canRetry = sweep.status === 'failed' || sweep.status === 'cancelled';
  const actions = h('div', { class: 'sweep-actions' });
  actions.append(timelineButton(sweep.id));
  if (canCancel) actions.append(actionButton(sweep.id, 'cancel', 'Cancel', 'danger small'));
  if (canRetry) actions.append(actionButton(sweep.id, 'retry', 'Retry', 'secondary small'));
  const message = sweepMessages.get(sweep.id);
  return h(
    'article',
    { class: 'sweep', 'data-sweep': sweep.id, 'data-status': sweep.status },
    h(
      'div',
      { class: 'sweep-head' },
      h('span', { class: 'sweep-id' }, sweep.id),
      pill(sweep.status),
      h(
        'span',
        { class: 'sweep-facts' },
        h('span', {}, `${sweep.problem === 'classic' ? 'classic ' : ''}n = ${nsLabel(sweep.ns)}`),
        h('span', {}, `${sweep.done}/${sweep.total} n done`),
        h('span', {}, `${sweep.unitsDone}/${sweep.units} units`),
        h('span', {}, `elapsed ${duration(sweep.elapsedSeconds)}`),
        sweep.etaSeconds !== null && h('span', {}, `ETA ≈ ${duration(sweep.etaSeconds)}`),
        h('span', {}, `started ${ago(sweep.createdAt)} ago`),
      ),
      actions,
    ),
    message ? h('p', { class: 'sweep-error', role: 'alert' }, message) : null,
    unfitNotice(sweep),
    sweep.notQueued
      ? h('p', { class: 'sweep-unfit', role: 'status' }, sweep.notQueued.message)
      : null,
    ...sweep.sizes.map((size) => sizeRow(sweep, size)),
  );
}

/** Units no live worker can hold: which, how much memory, what the largest worker has. */
function unfitNotice(sweep: SweepView): HTMLElement | null {
  if (sweep.unfit.length === 0) return null;
  const largest = sweep.unfit[0]?.largestSlotBytes ?? 0;
  const shown = sweep.unfit.slice(0, 5).map((u) => `${u.jobId} needs ${bytesLabel(u.bytes)}`);
  const more = sweep.unfit.length > 5 ? `, and ${sweep.unfit.length - 5} more` : '';
  const has =
    largest > 0
      ? `the largest live worker has ${bytesLabel(largest)} per slot`
      : 'no worker is live';
  return h(
    'p',
    { class: 'sweep-unfit', role: 'status' },
    `${sweep.unfit.length} unit(s) fit no live worker (${has}): ${shown.join('; ')}${more}. ` +
      `Run wq replan ${sweep.id}, or start a worker with more memory per slot.`,
  );
}

function bytesLabel(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

function nsLabel(ns: readonly number[]): string {
  if (ns.length === 0) return '';
  const first = ns[0] ?? 0;
  const last = ns[ns.length - 1] ?? 0;
  return ns.length === last - first + 1 && ns.length > 2 ? `${first}–${last}` : ns.join(', ');
}

function actionButton(id: string, action: 'cancel' | 'retry', label: string, cls: string) {
  const button = h('button', { type: 'button', class: cls, 'data-action': action }, label);
  button.addEventListener('click', () => {
    button.setAttribute('disabled', '');
    post(`/api/sweeps/${encodeURIComponent(id)}/${action}`, {})
      .then(({ ok, data }) => {
        if (ok) {
          const left = (data as { left?: number[] }).left;
          sweepMessages.set(
            id,
            action === 'cancel' && left?.length
              ? `Cancelled; n = ${left.join(', ')} still finishing their running units.`
              : '',
          );
        } else {
          sweepMessages.set(id, errorOf(data).message ?? `${action} failed`);
        }
      })
      .catch(() => sweepMessages.set(id, `${action} failed: the dashboard cannot be reached`))
      .finally(() => button.removeAttribute('disabled'));
  });
  return button;
}

function sizeRow(sweep: SweepView, size: SizeView): HTMLElement {
  const key = `${sweep.id}:${size.n}`;
  const details = h(
    'details',
    { class: 'size', 'data-n': String(size.n), 'data-status': size.status },
    h(
      'summary',
      {},
      h('span', { class: 'size-n' }, `n=${size.n}`),
      bar(size.units ? size.unitsDone / size.units : 0, size.status),
      h('span', { class: 'size-units' }, `${size.unitsDone}/${size.units} units`),
      pill(size.status),
      h(
        'span',
        { class: 'size-S', title: size.reason ?? '' },
        size.S !== null
          ? `S = ${grouped(size.S)}`
          : size.Q !== null
            ? `Q = ${grouped(size.Q)}, unique = ${grouped(size.unique ?? '')}`
            : (size.reason ?? ''),
      ),
    ),
    depthTable(size.depths),
  ) as HTMLDetailsElement;
  details.open = openSizes.has(key);
  details.addEventListener('toggle', () => {
    if (details.open) openSizes.add(key);
    else openSizes.delete(key);
  });
  return details;
}

function depthTable(depths: readonly DepthView[]): HTMLElement {
  const head = ['D', 'status', 'algorithm', 'units', 'time', 'ETA', 'N(n, D)'];
  return h(
    'table',
    { class: 'depths' },
    h(
      'thead',
      {},
      h('tr', {}, ...head.map((t, i) => h('th', { scope: 'col', class: i >= 3 ? 'num' : '' }, t))),
    ),
    h(
      'tbody',
      {},
      ...depths.map((d) =>
        h(
          'tr',
          { 'data-depth': String(d.depth) },
          h('td', { class: 'num' }, String(d.depth)),
          h('td', {}, pill(d.status)),
          h('td', {}, d.algorithm),
          h(
            'td',
            { class: 'num' },
            bar(d.units ? d.unitsDone / d.units : 0, d.status, true),
            `${d.unitsDone}/${d.units}`,
          ),
          h(
            'td',
            { class: 'num', title: 'single-core seconds, summed over the units' },
            duration(d.seconds || null),
          ),
          h('td', { class: 'num' }, d.etaSeconds === null ? '—' : `≈ ${duration(d.etaSeconds)}`),
          d.reason
            ? h('td', { class: 'reason' }, d.reason)
            : h('td', { class: 'num' }, d.value === null ? '' : grouped(d.value)),
        ),
      ),
    ),
  );
}

// ---- the timeline of one sweep ----

const timeline = new TimelineChart($<HTMLCanvasElement>('timeline'), $('timeline-tip'));
/** The sweep shown in the timeline panel, and what its last snapshot said (to refresh it). */
let timelineSweep: string | undefined;
let timelineSeen = '';
let timelineLoading = false;
let timelineLoadedAt = 0;
let timelineTimer: ReturnType<typeof setTimeout> | undefined;
/** A running sweep's timeline reloads at most this often (a big one is megabytes of JSON). */
const TIMELINE_REFRESH_MS = 5_000;

function timelineButton(id: string): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'secondary small', 'data-action': 'timeline' },
    'Timeline',
  );
  button.addEventListener('click', () => {
    timelineSweep = id;
    $('timeline-panel').hidden = false;
    loadTimeline()
      .then(() => $('timeline-panel').scrollIntoView({ block: 'start' }))
      .catch(() => undefined);
  });
  return button;
}

async function loadTimeline(): Promise<void> {
  const id = timelineSweep;
  if (id === undefined || timelineLoading) return;
  timelineLoading = true;
  timelineLoadedAt = Date.now();
  const status = $('timeline-status');
  try {
    const res = await fetch(`/api/sweeps/${encodeURIComponent(id)}/timeline`, {
      credentials: 'same-origin',
    });
    const data = (await res.json()) as unknown;
    if (id !== timelineSweep) return;
    if (!res.ok) {
      status.textContent = errorOf(data).message ?? `HTTP ${res.status}`;
      return;
    }
    status.textContent = '';
    renderTimeline(data as TimelineView);
  } catch {
    status.textContent = 'The timeline cannot be loaded: the dashboard cannot be reached.';
  } finally {
    timelineLoading = false;
  }
}

function renderTimeline(view: TimelineView): void {
  $('timeline-title').textContent = `Timeline of ${view.sweepId}`;
  timeline.draw(view);
  const { makespan } = view;
  const busy =
    makespan.actualSeconds && makespan.slots
      ? makespan.coreSeconds / (makespan.actualSeconds * makespan.slots)
      : null;
  const skipped = view.skipped.otherSweeps + view.skipped.untimed;
  const facts: Child[] = [
    h('span', {}, `n = ${nsLabel(view.ns)}`),
    h('span', {}, `${view.total} units on ${view.lanes.length} slots`),
    h(
      'span',
      { 'data-makespan': 'actual' },
      `actual makespan ${makespan.actualSeconds === null ? '—' : seconds(makespan.actualSeconds)}`,
    ),
    h(
      'span',
      {
        'data-makespan': 'planned',
        title: 'Σ the sweep’s estimated core-seconds ÷ the slots shown: no unit sizes, no order',
      },
      makespan.plannedSeconds === null
        ? 'planned makespan —'
        : `planned ≈ ${seconds(makespan.plannedSeconds)} ` +
            `(${seconds(makespan.estimatedCoreSeconds ?? 0)} estimated ÷ ${makespan.slots} slots)`,
    ),
    busy !== null && h('span', {}, `slots busy ${Math.round(busy * 100)}%`),
    view.truncated &&
      h('span', { class: 'warn' }, `showing the first ${view.units.length} units by start time`),
    skipped > 0 &&
      h(
        'span',
        {},
        `not drawn: ${view.skipped.otherSweeps} counted by other sweeps, ` +
          `${view.skipped.untimed} without a start time`,
      ),
  ];
  $('timeline-facts').replaceChildren(...facts.filter((f): f is Node | string => Boolean(f)));
  $('timeline-legend').replaceChildren(
    ...timeline.legend.map(({ label, colour }) => {
      const swatch = h('span', { class: 'swatch' });
      swatch.style.background = colour;
      return h('span', {}, swatch, label);
    }),
    h('span', { class: 'legend-note' }, 'paler: second count · red outline: far over estimate'),
  );
  renderOverruns(view.overruns);
}

function renderOverruns(units: readonly TimelineUnit[]): void {
  $('overruns').hidden = units.length === 0;
  fillTable('overruns', 'overruns-empty', units, (u) =>
    h(
      'tr',
      {},
      h('td', { class: 'mono' }, unitName(u)),
      h('td', { class: 'mono' }, u.unit + (u.role === 'check' ? ' (check)' : '')),
      h('td', {}, u.algorithm),
      h('td', { class: 'num' }, seconds(u.seconds)),
      h('td', { class: 'num' }, u.estimateSeconds === null ? '—' : seconds(u.estimateSeconds)),
      h('td', { class: 'num' }, overBy(u.seconds, u.estimateSeconds)),
      h('td', { class: 'mono' }, `${u.worker} #${u.slot}`),
      h('td', { class: 'num' }, `+${seconds(u.start)}`),
    ),
  );
}

/** Reloads an open timeline when its sweep's progress changed (at most one load at a time). */
function refreshTimeline(sweeps: readonly SweepView[]): void {
  const sweep = sweeps.find((s) => s.id === timelineSweep);
  if (!sweep) return;
  const seen = `${sweep.status}:${sweep.unitsDone}`;
  if (seen === timelineSeen) return;
  const wait = timelineLoadedAt + TIMELINE_REFRESH_MS - Date.now();
  if (wait > 0) {
    // Too soon: look again when the wait is over, so the last change is never missed.
    timelineTimer ??= setTimeout(() => {
      timelineTimer = undefined;
      refreshTimeline(sweeps);
    }, wait);
    return;
  }
  timelineSeen = seen;
  loadTimeline().catch(() => undefined);
}

function wireTimeline(): void {
  $('timeline-close').addEventListener('click', () => {
    timelineSweep = undefined;
    timelineSeen = '';
    $('timeline-panel').hidden = true;
  });
}

// ---- workers and queues ----

/** A worker whose clock is off the Redis server's by more than a few seconds says so. */
function clockNote(skewMs: number | null): HTMLElement | null {
  if (skewMs === null || Math.abs(skewMs) <= 2000) return null;
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  return h(
    'span',
    { class: 'clock-skew', title: "its clock against the Redis server's" },
    ` (clock ${seconds} s ${skewMs > 0 ? 'ahead' : 'behind'})`,
  );
}

function renderWorkers(workers: readonly WorkerView[]): void {
  fillTable('workers', 'workers-empty', workers, (w) =>
    h(
      'tr',
      { 'data-worker': w.id },
      h('td', {}, w.host, clockNote(w.clockSkewMs)),
      h('td', { class: 'num' }, String(w.pid)),
      h('td', { class: 'num' }, String(w.concurrency)),
      h(
        'td',
        { class: 'num memory', title: 'memory it may use in all (per slot)' },
        w.memoryBytes === null
          ? '—'
          : `${bytesLabel(w.memoryBytes)}${w.slotBytes === null ? '' : ` (${bytesLabel(w.slotBytes)}/slot)`}`,
      ),
      h('td', {}, w.version ?? '—'),
      h('td', { class: 'current' }, w.current.length ? w.current.map(jobLabel).join(', ') : 'idle'),
      h('td', { class: 'num' }, w.jobsDone === null ? '—' : String(w.jobsDone)),
      h(
        'td',
        {},
        w.busyShare === null
          ? '—'
          : h('span', {}, bar(w.busyShare, 'running', true), `${Math.round(w.busyShare * 100)}%`),
      ),
      h('td', { class: 'num' }, ago(w.startedAt)),
    ),
  );
}

function renderQueues(
  queues: Snapshot['queues'],
  disagreements: Snapshot['disagreements'] = [],
): void {
  const stats = $('queue-stats');
  const items: HTMLElement[] = [];
  for (const [name, counts] of Object.entries(queues)) {
    const parts = ['waiting', 'active', 'completed', 'failed']
      .map((s) => `${counts[s] ?? 0} ${s}`)
      .join(' · ');
    items.push(h('div', {}, h('dt', {}, `${name} queue`), h('dd', {}, parts)));
  }
  // A unit counted twice with two values: neither is trusted until `wq verify --repair`.
  for (const d of disagreements) {
    items.push(
      h(
        'div',
        { class: 'disagreement' },
        h('dt', {}, `disagreement N(${d.n}, ${d.depth}) unit ${d.unit}`),
        h('dd', {}, `${d.stored} vs ${d.counted} (wq verify ${d.n} --repair)`),
      ),
    );
  }
  stats.replaceChildren(...items);
}

// ---- results and chart ----

let resultsKey = '';
let chart: uPlotType | undefined;
let chartNs = '';

async function loadResults(): Promise<void> {
  const res = await fetch('/api/results', { credentials: 'same-origin' });
  if (!res.ok) return;
  const results = (await res.json()) as SizeResult[];
  renderResults(results);
  renderChart(results);
  await loadClassic();
}

/** The classic results have no sweep in the snapshot: fetched with the others and every 10 s. */
async function loadClassic(): Promise<void> {
  const res = await fetch('/api/results/classic', { credentials: 'same-origin' });
  if (!res.ok) return;
  const { results } = (await res.json()) as { results: ClassicView[] };
  fillTable('classic-results', 'classic-empty', results, (r) =>
    h(
      'tr',
      { 'data-n': String(r.n) },
      h('td', { class: 'num' }, String(r.n)),
      h('td', { class: 'num', 'data-value': r.Q }, r.Q),
      h('td', { class: 'num', 'data-value': r.unique }, r.unique),
      h('td', { class: 'num' }, `${r.units} (${r.checked})`),
    ),
  );
}
setInterval(() => {
  loadClassic().catch(() => undefined);
}, 10_000);

function renderResults(results: readonly SizeResult[]): void {
  fillTable('results', 'results-empty', results, (r) =>
    h(
      'tr',
      { 'data-n': String(r.n) },
      h('td', { class: 'num' }, String(r.n)),
      h('td', { class: 'num S', 'data-value': r.S ?? '' }, r.S ?? 'missing'),
      h(
        'td',
        {},
        h(
          'details',
          {},
          h('summary', {}, `${r.N.filter((v) => v !== null).length} of ${r.n} values`),
          h(
            'ol',
            {},
            ...r.N.map((v, d) =>
              h(
                'li',
                { 'data-depth': String(d) },
                h('span', {}, `D=${d}`),
                h('span', { 'data-value': v ?? '' }, v ?? 'missing'),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** log10 of an exact decimal string, without losing range to Number (0 has none: a gap). */
function log10Decimal(value: string | null): number | null {
  if (value === null || value === '0') return null;
  const head = value.slice(0, 15);
  return Math.log10(Number(head)) + (value.length - head.length);
}

function colour(i: number, count: number): string {
  return `hsl(${Math.round((i * 300) / Math.max(1, count - 1) + 200) % 360} 70% 48%)`;
}

function renderChart(results: readonly SizeResult[]): void {
  const el = $('chart');
  const shown = results.filter((r) => r.N.some((v) => v !== null));
  const maxD = Math.max(0, ...shown.map((r) => r.n - 1));
  const xs = Array.from({ length: maxD + 1 }, (_, d) => d);
  const data: (number | null)[][] = [
    xs,
    ...shown.map((r) => xs.map((d) => (d < r.n ? log10Decimal(r.N[d] ?? null) : null))),
  ];
  const key = shown.map((r) => r.n).join(',');
  if (chart && key === chartNs) {
    chart.setData(data as uPlotType.AlignedData);
    return;
  }
  chart?.destroy();
  chartNs = key;
  if (shown.length === 0) {
    el.replaceChildren(h('p', { class: 'empty' }, 'The chart appears with the first results.'));
    chart = undefined;
    return;
  }
  el.replaceChildren();
  const ink = getComputedStyle(document.body).color;
  const grid = { stroke: 'rgba(128,128,128,0.18)', width: 1 };
  chart = new uPlot(
    {
      width: Math.max(320, el.clientWidth),
      height: 340,
      scales: { x: { time: false } },
      axes: [
        { label: 'D (attack depth)', stroke: ink, grid, incrs: [1, 2, 5] },
        { label: 'log10 N(n, D)', stroke: ink, grid, size: 50 },
      ],
      series: [
        { label: 'D' },
        ...shown.map((r, i) => ({
          label: `n=${r.n}`,
          stroke: colour(i, shown.length),
          width: 2,
          points: { show: true, size: 5 },
          value: (_u: uPlotType, v: number | null) => (v === null ? '—' : v.toFixed(2)),
        })),
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
    },
    data as uPlotType.AlignedData,
    el,
  );
}

window.addEventListener('resize', () => {
  chart?.setSize({ width: Math.max(320, $('chart').clientWidth), height: 340 });
  timeline.redraw();
});

// ---- live updates ----

function render(snapshot: Snapshot): void {
  renderSweeps(snapshot.sweeps);
  refreshTimeline(snapshot.sweeps);
  renderWorkers(snapshot.workers);
  renderQueues(snapshot.queues, snapshot.disagreements);
  // Results change only when an (n, D) or an n completes: fetch them again then.
  const key = snapshot.sweeps
    .flatMap((s) => s.sizes.map((z) => `${z.n}:${z.S ?? z.depths.filter((d) => d.value).length}`))
    .sort()
    .join(' ');
  if (key !== resultsKey) {
    resultsKey = key;
    loadResults().catch(() => undefined);
  }
}

function connect(): void {
  const status = $('connection');
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'pill pill-live';
  });
  events.addEventListener('snapshot', (e) => {
    render(JSON.parse((e as MessageEvent<string>).data) as Snapshot);
  });
  events.addEventListener('problem', (e) => {
    const { message } = JSON.parse((e as MessageEvent<string>).data) as { message: string };
    status.textContent = message;
    status.className = 'pill pill-failed';
  });
  events.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'pill pill-offline';
  });
}

// ---- the start form ----

function showFieldError(input: HTMLInputElement, error: HTMLElement, message: string): void {
  error.textContent = message;
  error.hidden = message === '';
  input.setAttribute('aria-invalid', message === '' ? 'false' : 'true');
}

function wireForm(): void {
  const form = $<HTMLFormElement>('sweep-form');
  const ns = $<HTMLInputElement>('ns');
  const target = $<HTMLInputElement>('target');
  const nsError = $('ns-error');
  const targetError = $('target-error');
  const message = $('form-message');
  const button = $<HTMLButtonElement>('start');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    showFieldError(ns, nsError, '');
    showFieldError(target, targetError, '');
    message.hidden = true;
    const body: Record<string, unknown> = { ns: ns.value };
    if (target.value.trim() !== '') body.targetSeconds = Number(target.value);
    button.disabled = true;
    post('/api/sweeps', body)
      .then(({ ok, data }) => {
        if (ok) {
          const sub = data as { sweep: { id: string }; added: number };
          message.textContent = `Sweep ${sub.sweep.id} started: ${sub.added} jobs queued.`;
          message.hidden = false;
          return;
        }
        const error = errorOf(data);
        const text = error.allowed ? `Expected ${error.allowed}.` : (error.message ?? 'refused');
        if (error.field === 'ns') showFieldError(ns, nsError, text);
        else if (error.field === 'targetSeconds') showFieldError(target, targetError, text);
        else {
          message.textContent = error.message ?? 'The sweep was refused.';
          message.hidden = false;
        }
      })
      .catch(() => {
        message.textContent = 'The dashboard cannot be reached.';
        message.hidden = false;
      })
      .finally(() => {
        button.disabled = false;
      });
  });
}

async function showLogout(): Promise<void> {
  const res = await fetch('/api/session', { credentials: 'same-origin' });
  if (res.ok && ((await res.json()) as { auth?: string }).auth === 'cookie') {
    $('logout').hidden = false;
  }
}

wireForm();
wireTimeline();
connect();
showLogout().catch(() => undefined);
