// The dashboard page: renders the snapshots the server pushes over Server-Sent Events, the
// results table and the chart, and sends the start / cancel / retry requests. Everything from
// the server is written with textContent, never as HTML. Each panel has its module; this file
// wires them up.
import { getJson } from './api.js';
import { $ } from './dom.js';
import { connect } from './live.js';
import { pollResults } from './problems.js';
import { wireForm } from './sweep-form.js';
import { wireTimeline } from './timeline-panel.js';
import { wireChart } from './weak-results.js';

async function showLogout(): Promise<void> {
  const session = await getJson<{ auth?: string }>('/api/session');
  if (session?.auth === 'cookie') {
    $('logout').hidden = false;
  }
}

pollResults();
wireChart();
wireForm();
wireTimeline();
connect();
showLogout().catch(() => undefined);
