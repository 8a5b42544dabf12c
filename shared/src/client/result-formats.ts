// Results as they leave the system, in files and over HTTP: one JSON line per n (the same line
// as `wq compute --json`) or CSV. Values are exact decimal strings; a missing one is null or
// empty, never 0.
import type { SizeResults } from './pipeline-client.js';

export function resultsJsonLine(r: SizeResults): string {
  return JSON.stringify({ n: r.n, S: r.S ?? null, N: r.N.map((v) => v ?? null) });
}

export function resultsCsv(results: readonly SizeResults[]): string {
  const rows = ['n,D,value'];
  for (const r of results) {
    r.N.forEach((v, d) => rows.push(`${r.n},${d},${v ?? ''}`));
    rows.push(`${r.n},S,${r.S ?? ''}`);
  }
  return rows.join('\n') + '\n';
}
