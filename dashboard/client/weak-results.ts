// The results of weak sweeps: S(n) and every N(n, D) in a table, and log10 N(n, D) against D
// in a chart.
import type uPlotType from 'uplot';
import { getJson } from './api.js';
import { $, fillTable, h } from './dom.js';

interface SizeResult {
  readonly n: number;
  readonly S: string | null;
  readonly N: readonly (string | null)[];
}

// uPlot's ES module, served by the dashboard from node_modules (no CDN); a variable keeps the
// compiler from resolving the URL as a module name.
const UPLOT_URL = '/vendor/uPlot.esm.js';
const { default: uPlot } = (await import(UPLOT_URL)) as { default: typeof uPlotType };

let chart: uPlotType | undefined;
let chartNs = '';

export async function loadWeakResults(): Promise<void> {
  const results = await getJson<SizeResult[]>('/api/results');
  if (!results) return;
  renderResults(results);
  renderChart(results);
}

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

/** The chart follows the window's width. */
export function wireChart(): void {
  window.addEventListener('resize', () => {
    chart?.setSize({ width: Math.max(320, $('chart').clientWidth), height: 340 });
  });
}
