// The live workers (with their clocks and memory) and the queue counts, with the units counted
// twice with two values beside them.
import type { Snapshot, WorkerView } from '../src/snapshot.js';
import { $, bar, fillTable, h } from './dom.js';
import { ago, bytesLabel, jobLabel } from './format.js';

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

/** A worker of another build's protocol is live but takes none of the jobs this page shows. */
function protocolNote(w: WorkerView): HTMLElement | null {
  if (!w.otherProtocol) return null;
  return h(
    'span',
    { class: 'other-protocol', title: 'its jobs are in the queues of its own protocol' },
    ` (protocol ${w.protocol}: another build, takes none of this build's jobs)`,
  );
}

export function renderWorkers(workers: readonly WorkerView[]): void {
  fillTable('workers', 'workers-empty', workers, (w) =>
    h(
      'tr',
      { 'data-worker': w.id, ...(w.otherProtocol ? { class: 'other-protocol' } : {}) },
      h('td', {}, w.host, clockNote(w.clockSkewMs), protocolNote(w)),
      h('td', { class: 'num' }, String(w.pid)),
      h('td', { class: 'num' }, String(w.concurrency)),
      h(
        'td',
        { class: 'num memory', title: 'memory it may use in all (per slot)' },
        w.memoryBytes === null
          ? '—'
          : `${bytesLabel(w.memoryBytes)}${w.slotBytes === null ? '' : ` (${bytesLabel(w.slotBytes)}/slot)`}`,
      ),
      h('td', {}, w.build ?? w.version ?? '—'),
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

export function renderQueues(
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
