// `node scripts/recheck-published.mjs --n 18 --depths 9,10 --algorithm dfs [--out
// results/weak-queens.jsonl] [--docs docs/results.md]` (after `npm run build`): counts published
// N(n, D) once more, in this process, by the algorithm named (one that shares less with the
// published first and second counts: the DFS against two window transfers, the seed DP), and
// records each agreement in the results file as a check of that D with its core-seconds. A
// recount that disagrees writes nothing and exits 1 with both values: a published value is
// never changed here, only confirmed.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countPlacements, parseAlgorithm } from '../shared/dist/kernel/index.js';
import { renderResultsTable } from './results-docs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    n: { type: 'string' },
    depths: { type: 'string' },
    algorithm: { type: 'string' },
    out: { type: 'string', default: 'results/weak-queens.jsonl' },
    docs: { type: 'string', default: 'docs/results.md' },
  },
});

function fail(message) {
  process.stderr.write(`recheck-published: ${message}\n`);
  process.exit(2);
}

const n = Number(values.n);
if (!Number.isInteger(n) || n < 1)
  fail(`--n: "${values.n ?? ''}" is not allowed; expected a size such as 18`);
const depths = (values.depths ?? '').split(',').map(Number);
if (!values.depths || depths.some((d) => !Number.isInteger(d) || d < 0 || d >= n)) {
  fail(
    `--depths: "${values.depths ?? ''}" is not allowed; expected D values 0 … ${n - 1}, e.g. 9,10`,
  );
}
if (!values.algorithm || values.algorithm === 'auto') {
  fail('--algorithm: expected dfs, window-transfer or seed-dp (the kind of count to confirm with)');
}
const algorithm = parseAlgorithm(values.algorithm);

const target = resolve(root, values.out);
const lines = readFileSync(target, 'utf8')
  .split('\n')
  .filter((t) => t.trim())
  .map((t) => JSON.parse(t));
const line = lines.find((l) => l.n === n);
if (!line) fail(`n = ${n} is not published in ${values.out}`);

const label = `recount by ${algorithm}`;
const command = `node scripts/recheck-published.mjs --n ${n} --depths ${depths.join(',')} --algorithm ${algorithm}`;
const disagreements = [];
for (const depth of depths) {
  const published = line.N[depth];
  const started = process.cpuUsage();
  const wall = Date.now();
  let lastReport = wall;
  const value = countPlacements(n, depth, {
    algorithm,
    onProgress: (fraction) => {
      if (Date.now() - lastReport < 60_000) return;
      lastReport = Date.now();
      process.stderr.write(
        `  N(${n}, ${depth}) by ${algorithm}: ${(fraction * 100).toFixed(1)} %\n`,
      );
    },
  }).toString();
  const used = process.cpuUsage(started);
  const coreSeconds = Math.round((used.user + used.system) / 1000) / 1000;
  process.stdout.write(
    `N(${n}, ${depth}) by ${algorithm}: ${value} in ${coreSeconds} core-s (${Math.round((Date.now() - wall) / 1000)} s wall); published ${published}: ${value === published ? 'agrees' : 'DISAGREES'}\n`,
  );
  if (value !== published) {
    disagreements.push(`N(${n}, ${depth}): published ${published}, ${algorithm} counts ${value}`);
    continue;
  }
  const record = line.depths.find((d) => d.D === depth);
  if (!record.checks.includes(label)) record.checks.push(label);
  record.rechecks = [
    ...(record.rechecks ?? []).filter((r) => r.algorithm !== algorithm),
    { algorithm, coreSeconds, command },
  ];
}
if (disagreements.length > 0) {
  process.stderr.write(
    `recheck-published: nothing written; ${disagreements.length} disagreement(s):\n`,
  );
  for (const d of disagreements) process.stderr.write(`  ${d}\n`);
  process.exit(1);
}
writeFileSync(target, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
process.stdout.write(`recheck-published: ${depths.length} value(s) confirmed in ${values.out}\n`);
if (renderResultsTable(lines, resolve(root, values.docs))) {
  process.stdout.write(`recheck-published: table rendered into ${values.docs}\n`);
}
