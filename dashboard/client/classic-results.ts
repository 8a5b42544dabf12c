// The results of classic sweeps: Q(n), the count of boards unique up to symmetry, and how many
// units counted them (and how many of those were counted twice).
import { getJson } from './api.js';
import { fillTable, h } from './dom.js';

interface ClassicView {
  readonly n: number;
  readonly Q: string;
  readonly unique: string;
  readonly units: number;
  readonly checked: number;
}

export async function loadClassicResults(): Promise<void> {
  const answer = await getJson<{ results: ClassicView[] }>('/api/results/classic');
  if (!answer) return;
  fillTable('classic-results', 'classic-empty', answer.results, (r) =>
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
