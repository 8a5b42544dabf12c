// The timeline panel of one sweep: opened from its card, loaded from the API, reloaded while the
// sweep runs (not more often than TIMELINE_REFRESH_MS), with its facts, legend and overruns.
import type { SweepView } from '../src/snapshot.js';
import type { TimelineUnit, TimelineView } from '../src/timeline.js';
import { errorOf } from './api.js';
import { $, type Child, fillTable, h } from './dom.js';
import { nsLabel } from './format.js';
import { type ProblemView, problemView } from './problems.js';
import { overBy, seconds, TimelineChart } from './timeline-chart.js';

const timeline = new TimelineChart($<HTMLCanvasElement>('timeline'), $('timeline-tip'));
/** The sweep shown in the timeline panel, and what its last snapshot said (to refresh it). */
let timelineSweep: string | undefined;
let timelineSeen = '';
let timelineLoading = false;
let timelineLoadedAt = 0;
let timelineTimer: ReturnType<typeof setTimeout> | undefined;
/** A running sweep's timeline reloads at most this often (a big one is megabytes of JSON). */
const TIMELINE_REFRESH_MS = 5_000;

export function timelineButton(id: string): HTMLElement {
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
  renderOverruns(view.overruns, problemView(view.problem));
}

function renderOverruns(units: readonly TimelineUnit[], problem: ProblemView): void {
  $('overruns').hidden = units.length === 0;
  fillTable('overruns', 'overruns-empty', units, (u) =>
    h(
      'tr',
      {},
      h('td', { class: 'mono' }, problem.unitName(u)),
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
export function refreshTimeline(sweeps: readonly SweepView[]): void {
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

export function wireTimeline(): void {
  $('timeline-close').addEventListener('click', () => {
    timelineSweep = undefined;
    timelineSeen = '';
    $('timeline-panel').hidden = true;
  });
  window.addEventListener('resize', () => timeline.redraw());
}
