// The results of classic sweeps: Q(n), the count of boards unique up to symmetry, and how many
// units counted them (and how many of those were counted twice).
import { fillTable, h } from './dom.js';

interface ClassicView {
  readonly n: number;
  readonly Q: string;
  readonly unique: string;
  readonly units: number;
  readonly checked: number;
}

export async function loadClassicResults(): Promise<void> {
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
