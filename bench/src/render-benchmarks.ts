// Renders docs/benchmarks.md from bench/results/*.json, so a table in the docs is always one
// run's figures with its command, date, commit and machine. The hand-kept, dated lab notes stay
// in bench/results/NOTES.md, linked from the page, not copied into the docs.
// Run after every bench, or alone with `npm run bench -- --render`.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repositoryRoot } from './baseline.js';
import { RESULTS_DIR, type BenchRecord, type BenchTable } from './bench-record.js';

const BENCHMARKS_MD = join(repositoryRoot, 'docs', 'benchmarks.md');
const NOTES_MD = join(RESULTS_DIR, 'NOTES.md');

/** What each bench measures, in the order the page lists them. */
const BENCHES: readonly {
  readonly bench: string;
  readonly title: string;
  readonly about: string;
}[] = [
  {
    bench: 'kernel',
    title: 'The kernel against the C++ baseline',
    about:
      'S(13) and S(14) (`--full`: and S(15)) with `wq compute --threads 1` for `auto` and each algorithm, one process each, against the seed-style C++ baseline on one thread; wall time and peak RSS of the whole command, start-up included. Goal: `auto` at S(14) ≤ 0.5× the baseline.',
  },
  {
    bench: 'pipeline',
    title: 'The pipeline end to end',
    about:
      'A private redis-server (AOF) and 2 worker processes: S(14) from submission until it is stored, against the baseline on 2 threads, and the sweep 1..12 for the queue overhead. Goals: S(14) ≤ 0.5× the baseline, sweep 1..12 ≤ 3 s.',
  },
  {
    bench: 'scale',
    title: 'Scaling',
    about:
      'S(15) on 1 and 2 one-core worker processes (speedup; goal ≥ 1.8×); `--full` adds S(16) on 2 workers and a makespan simulation of its recorded unit times on up to 256 workers (goal: 85% efficiency at 64).',
  },
  {
    bench: 'frontier',
    title: 'The frontier: S(16), S(17) against the strongest peer',
    about:
      'The pipeline with default settings on 2 one-core worker processes against `peer-tm-dfs` (C++ -O3, transfer matrix and mirror DFS) on 2 threads; `--full` adds S(17). Goal: ≤ 0.5× the peer, peak RSS per worker ≤ 2 GB.',
  },
  {
    bench: 'classic',
    title: 'The classic problem Q(n)',
    about:
      'Q(n) and the unique count on the pipeline (2 one-core workers) against `peer-classic` (textbook bitmask DFS with the mirror, C++, 2 threads), from submission to the `--wait` wake-up. Goal: ≤ 0.5× the peer; values checked against the peer and OEIS A000170/A002562.',
  },
  {
    bench: 'redis-memory',
    title: 'Redis memory and enqueue rate',
    about:
      'About 120,000 units of n = 10..15 planned tiny and enqueued with no worker running, then counted by 2 workers: bytes per queued and finished unit, enqueue rate, `wq status` read time.',
  },
  {
    bench: 'chaos',
    title: 'Chaos soak',
    about:
      'Rounds of a sweep of about 5,000 units on 4 worker processes under random kill -9s, freezes, Redis restarts and network cuts; every S(n) of every round must be exact.',
  },
  {
    bench: 'cluster-replay',
    title: 'Plans against a real run',
    about:
      'S(17) planned for 64 and 256 one-slot workers, run here for real, and its recorded unit times replayed on those clusters in the queue order (efficiency = core-seconds ÷ (slots × replayed makespan)).',
  },
  {
    bench: 'verify-cost',
    title: 'What a verified sweep costs',
    about:
      "The same sizes (1..15) on a fresh private redis-server with AOF and 2 worker processes with the default slots, plain and with `--verify`: wall time against the first and second counts' core-seconds ÷ the slots, AOF growth, and how often a job was fetched. Goals: wall ≤ 1.1× the core-seconds ÷ slots, AOF ≤ 2× the plain sweep's, no job fetched more than 3 times.",
  },
  {
    bench: 'eta',
    title: 'ETA accuracy',
    about:
      'The ETA shown during a run against the time that actually remained, at 25%, 50% and 75% of the work.',
  },
  {
    bench: 'sse',
    title: 'The dashboard under stalled clients',
    about:
      "The dashboard process with default settings and a private redis-server holding queued sweeps (its snapshot changes every second, as during a run), with 1,000 event-stream clients that send the request and never read: a real page's `GET /` and first snapshot every 2 s, the dashboard's RSS, and the kernel's send queues on its port. Goals: the page in < 1 s, RSS < 200 MiB.",
  },
  {
    bench: 'soak',
    title: 'Soak: a long sweep over hours',
    about:
      "S(17) (`--n`: another n) on one worker process with default settings (a slot per core, log level info) and a private redis-server with AOF, sampled every minute (`--every`) until done: each worker's resident memory, Redis used memory, the AOF's size and rewrites, the worker's log lines, and the units done and ETA `wq status` shows; `--samples` makes the same figures from samples of a deployment recorded elsewhere. Goals: worker RSS grows ≤ 10% after a warm-up (the first hour; a quarter of a run shorter than 2 hours), the AOF stays ≤ 1 GiB, ≤ 1,000 log lines per hour, and the ETA within ±15% of the time that remained at 25%, 50% and 75% of the wall time.",
  },
];

/** Reads every record in bench/results, oldest first. */
function readRecords(dir = RESULTS_DIR): BenchRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as BenchRecord);
}

/** The whole page for these records (and a link to the hand-kept notes, if any). */
export function renderBenchmarks(records: readonly BenchRecord[], hasNotes = false): string {
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by bench/src/render-benchmarks.ts from bench/results/*.json: do not edit by hand. -->',
    '',
    'Every table here is one run of `npm run bench`, rendered from the JSON record the run wrote to',
    '`bench/results/` (command, start time, commit, machine and its load, figures). Regenerate this',
    'page with `npm run bench -- --render`; every bench run also regenerates it.',
    '',
    'The machines these ran on are shared with other work and have few cores, so compare only',
    'figures measured in the same run (each bench runs its yardstick beside the pipeline for',
    'that reason); the recorded load average says how noisy a run was. "dirty" means the',
    'working tree held uncommitted changes to tracked files when the bench ran.',
    '',
    'The yardsticks are C++ programs each bench builds with g++ from the folder `WQ_BASELINE_DIR`',
    'names (by default `shared/baseline` beside the repository): `seed-dp`, the seed-style',
    'sorted-merge DP of [kernel.md](kernel.md); `peer-tm-dfs`, a transfer matrix with a mirror DFS;',
    '`peer-classic`, the textbook bitmask DFS for Q(n) with the mirror.',
    '',
  ];
  const known = new Set(BENCHES.map((b) => b.bench));
  const sections = [
    ...BENCHES,
    ...[...new Set(records.map((r) => r.bench))]
      .filter((bench) => !known.has(bench))
      .map((bench) => ({ bench, title: `\`--${bench}\``, about: '' })),
  ];
  for (const section of sections) {
    const runs = records.filter((r) => r.bench === section.bench);
    if (runs.length === 0) continue;
    out.push(`## ${section.title}`, '');
    if (section.about) out.push(section.about, '');
    // The latest run of each distinct command in full; older runs in the history below.
    const latest = new Map<string, BenchRecord>();
    for (const run of runs) latest.set(run.command, run);
    for (const run of latest.values()) out.push(...renderRun(run));
    if (runs.length > latest.size) {
      out.push('Earlier runs:', '');
      out.push('| started (UTC) | command | commit | load start / max | goals met |');
      out.push('| --- | --- | --- | ---: | --- |');
      for (const run of runs.filter((r) => !new Set(latest.values()).has(r))) {
        out.push(
          `| ${when(run.startedAt)} | \`${run.command}\` | ${commitOf(run)} | ${run.machine.load.start} / ${run.machine.load.max} | ${run.exitCode === 0 ? 'yes' : 'no'} |`,
        );
      }
      out.push('');
    }
  }
  if (records.length === 0) out.push('No runs recorded yet: run `npm run bench`.', '');
  if (hasNotes) {
    out.push(
      'What was tried and measured by hand, dated: [bench/results/NOTES.md](../bench/results/NOTES.md).',
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function renderRun(run: BenchRecord): string[] {
  const m = run.machine;
  const minutes = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 60_000;
  const out = [
    `### \`${run.command}\``,
    '',
    `${when(run.startedAt)} UTC, ${minutes.toFixed(1)} min, commit ${commitOf(run)}; ` +
      `${m.cpus} cpus (${m.cpuModel.trim()}), ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, Node ${m.node}; ` +
      `load average ${m.load.start} at the start, ${m.load.max} at most, ${m.load.end} at the end; ` +
      `goals ${run.exitCode === 0 ? 'met' : 'NOT met (exit 1)'}.`,
    '',
  ];
  // More runnable work than cores: every runner waited for the CPU, the yardstick too.
  if (m.load.max > m.cpus) {
    out.push(
      `Load above the ${m.cpus} cores during this run: wall times are inflated, and ratios are only as fair as the load was even across the runners.`,
      '',
    );
  }
  for (const table of run.tables) out.push(...renderTable(table), '');
  if (run.notes.length) out.push(...run.notes.map((note) => `- ${note.trim()}`), '');
  return out;
}

function renderTable(table: BenchTable): string[] {
  // Columns of figures are right-aligned, like the bench prints them.
  const numeric = table.columns.map((_, i) =>
    table.rows.some((row) => /^\**[-+]?\d[\d,.]*\**( |$)/.test(row[i] ?? '')),
  );
  return [
    `| ${table.columns.join(' | ')} |`,
    `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

function when(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function commitOf(run: BenchRecord): string {
  return `${run.commit.slice(0, 7)}${run.dirty ? ' (dirty)' : ''}`;
}

/** Writes docs/benchmarks.md from the records on disk; returns its path. */
export function writeBenchmarks(): string {
  mkdirSync(dirname(BENCHMARKS_MD), { recursive: true });
  writeFileSync(BENCHMARKS_MD, renderBenchmarks(readRecords(), existsSync(NOTES_MD)));
  return BENCHMARKS_MD;
}
