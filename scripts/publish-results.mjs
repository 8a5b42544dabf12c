// `node scripts/publish-results.mjs --ns 1-18 [--from export.jsonl[,more.jsonl]] [--runs runs.json]
// [--out results/weak-queens.jsonl] [--docs docs/results.md]` (after `npm run build`): the
// published results file, generated from a result store after a verified sweep, never written
// by hand; the table of docs/results.md is rendered from it (between its markers).
//
// It reads the store's own export (`wq results <ns> --export`, run here against REDIS_URL and
// WQ_PREFIX unless --from names an export file) and writes one JSON line per n: S(n), N(n, D)
// as decimal strings, and per D the algorithm, units, core-seconds, peak bytes and every check
// the value passed. It refuses to publish (exit 1, every reason listed) an n that was not
// verified, a D whose second count disagrees with the first, or any value that disagrees with
// what is known without the kernel (n^n, OEIS A000170, N(n, 1)'s recurrence, the reference S(n)).
// `--runs` adds measured run figures per n (wall seconds, peak memory, load), as recorded by the
// one who ran the sweep: {"18": {"wallSeconds": …, "peakRssBytes": …, "load": "…"}}.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { knownSum, knownValue } from '../shared/dist/contracts/index.js';
import { renderResultsTable } from './results-docs.mjs';
import { CHECK_MEET_SHIFT, estimateCost } from '../shared/dist/kernel/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    ns: { type: 'string', default: '1-18' },
    from: { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string', default: 'results/weak-queens.jsonl' },
    docs: { type: 'string', default: 'docs/results.md' },
  },
});

/** `1-18` or `4,6,10-12`. */
function sizes(spec) {
  return spec.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) {
      throw new Error(`--ns: "${spec}" is not allowed; expected sizes such as 1-18 or 4,6,10-12`);
    }
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });
}

/** The store's export, from the file given or from `wq results --export` against REDIS_URL. */
function exportLines(ns) {
  // Several exports (comma-separated) when the sizes were counted under different prefixes.
  if (values.from)
    return values.from
      .split(',')
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'wq-publish-'));
  try {
    const file = join(dir, 'export.jsonl');
    const run = spawnSync(
      process.execPath,
      [join(root, 'producer/bin/wq.js'), 'results', `${ns[0]}-${ns.at(-1)}`, '--export', file],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (run.status !== 0) throw new Error(`wq results --export exited with ${run.status}`);
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How a second count differed from the first, in words. */
function secondCount(primary, check) {
  if (check.algorithm !== primary.algorithm) return `second count by ${check.algorithm}`;
  if (check.algorithm === 'window-transfer') {
    // The worker meets a check by the transfer past the middle row (count-processor.ts).
    return `second count by window-transfer met ${CHECK_MEET_SHIFT} row past the middle`;
  }
  const others = check.workers.filter((w) => !primary.workers.includes(w));
  return `second count by ${check.algorithm} in ${check.units} unit(s)${
    others.length ? ' on another worker' : ''
  }`;
}

/** The kernel's peak memory estimate of the largest unit of a count (an upper bound). */
function peakBytes(n, depth, algorithm) {
  return Math.ceil(estimateCost(algorithm, n, depth, []).bytes);
}

const round = (x) => Math.round(x * 1000) / 1000;

const ns = sizes(values.ns);
const runs = values.runs ? JSON.parse(readFileSync(values.runs, 'utf8')) : {};
const sums = new Map();
for (const text of exportLines(ns).split('\n')) {
  if (!text.trim()) continue;
  const line = JSON.parse(text);
  if (line.kind === 'sum' && ns.includes(line.n)) sums.set(line.n, line);
}

const refusals = [];
const out = [];
for (const n of ns) {
  const record = sums.get(n);
  if (!record) {
    refusals.push(`n = ${n}: no S(n) in the store`);
    continue;
  }
  if (!record.checks) {
    refusals.push(`n = ${n}: S(${n}) was never verified (run wq sweep ${n} --verify --wait)`);
    continue;
  }
  const N = Array.from({ length: n }, (_, d) => record.depths.find((x) => x.depth === d)?.value);
  const depths = [];
  for (let depth = 0; depth < n; depth++) {
    const primary = record.depths.find((d) => d.depth === depth);
    const check = record.checks.find((d) => d.depth === depth);
    if (!primary || !check) {
      refusals.push(`N(${n}, ${depth}): ${primary ? 'no second count' : 'no value'}`);
      continue;
    }
    const checks = [];
    if (check.value !== primary.value) {
      refusals.push(
        `N(${n}, ${depth}): ${primary.algorithm} counted ${primary.value}, ${check.algorithm} ${check.value}`,
      );
    } else {
      checks.push(secondCount(primary, check));
    }
    const known = knownValue(n, depth);
    if (known) {
      if (known.value !== primary.value) {
        refusals.push(
          `N(${n}, ${depth}) = ${primary.value}, but ${known.source} gives ${known.value}`,
        );
      } else {
        checks.push(known.source);
      }
    }
    depths.push({
      D: depth,
      algorithm: primary.algorithm,
      units: primary.units,
      coreSeconds: round(primary.seconds),
      peakBytes: peakBytes(n, depth, primary.algorithm),
      checks,
      check: {
        algorithm: check.algorithm,
        units: check.units,
        coreSeconds: round(check.seconds),
      },
      workers: primary.workers,
    });
  }
  const total = N.reduce((t, v) => t + BigInt(v ?? 0), 0n).toString();
  const sumChecks = [];
  if (total !== record.S)
    refusals.push(`S(${n}) = ${record.S}, but its N(n, D) add up to ${total}`);
  else sumChecks.push('sum of N(n, D)');
  const reference = knownSum(n);
  if (reference) {
    if (reference.value !== record.S) {
      refusals.push(`S(${n}) = ${record.S}, but ${reference.source} gives ${reference.value}`);
    } else {
      sumChecks.push(`reference S(n) (${reference.source})`);
    }
  }
  out.push({
    n,
    S: record.S,
    N,
    checks: sumChecks,
    coreSeconds: round(depths.reduce((t, d) => t + d.coreSeconds, 0)),
    checkCoreSeconds: round(depths.reduce((t, d) => t + d.check.coreSeconds, 0)),
    peakBytes: Math.max(...depths.map((d) => d.peakBytes)),
    peakBytesSource: 'kernel estimate of the largest unit (an upper bound)',
    ...(runs[n] ? { run: runs[n] } : {}),
    sweepId: record.sweepId,
    completedAt: record.completedAt,
    depths,
  });
}

if (refusals.length > 0) {
  process.stderr.write(`publish-results: nothing written; ${refusals.length} problem(s):\n`);
  for (const r of refusals) process.stderr.write(`  ${r}\n`);
  process.exit(1);
}
const target = resolve(root, values.out);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, out.map((line) => JSON.stringify(line)).join('\n') + '\n');
process.stdout.write(`publish-results: ${out.length} line(s) written to ${values.out}\n`);

// The table in docs/results.md is rendered from the same lines.
if (renderResultsTable(out, resolve(root, values.docs))) {
  process.stdout.write(`publish-results: table rendered into ${values.docs}\n`);
}
