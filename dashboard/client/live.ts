// The live state: the snapshots the server pushes over Server-Sent Events, handed to each
// panel, and the connection's status in the header.
import type { Snapshot } from '../src/snapshot.js';
import { $ } from './dom.js';
import { loadResults } from './problems.js';
import { renderSweeps } from './sweeps.js';
import { refreshTimeline } from './timeline-panel.js';
import { renderQueues, renderWorkers } from './workers.js';

let resultsKey = '';
let latest: Snapshot | undefined;

/**
 * The server sends a snapshot only when it changed, but the page's relative times ("started 5m
 * ago", a worker's uptime) move on: the last one is drawn again at the pace snapshots used to come.
 */
const REDRAW_MS = 1000;

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

export function connect(): void {
  const status = $('connection');
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'pill pill-live';
  });
  // The server sends a snapshot only when it changed, and again after a problem is over.
  events.addEventListener('snapshot', (e) => {
    status.textContent = 'live';
    status.className = 'pill pill-live';
    latest = JSON.parse((e as MessageEvent<string>).data) as Snapshot;
    render(latest);
  });
  setInterval(() => {
    if (latest) render(latest);
  }, REDRAW_MS);
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
