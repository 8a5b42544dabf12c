// Every bench run leaves a record: bench/results/<time>-<bench>.json with the command, the dates,
// the commit, the machine (with its load, since these machines are shared) and the figures the
// bench printed, so a figure can never be quoted without where and when it was measured.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './baseline.js';

export const RESULTS_DIR = join(repositoryRoot, 'bench', 'results');

/** The flags that pick a bench; the first one given names the run (none: the kernel bench). */
const BENCH_FLAGS = [
  'pipeline',
  'scale',
  'frontier',
  'classic',
  'redis-memory',
  'chaos',
  'cluster-replay',
  'eta',
  'verify-cost',
  'soak',
  'sse',
] as const;

export interface BenchTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface BenchRecord {
  readonly schema: 1;
  /** Which bench: `kernel` (no flag) or the flag that picked it, e.g. `classic`. */
  readonly bench: string;
  /** The command as a user types it, e.g. `npm run bench -- --classic --ns 16`. */
  readonly command: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly commit: string;
  /** Uncommitted changes to tracked files were present (several engineers share the tree). */
  readonly dirty: boolean;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly memoryBytes: number;
    readonly freeMemoryBytes: number;
    readonly node: string;
    readonly platform: string;
    /** 1-minute load average at the start, the end, and the highest sampled in between. */
    readonly load: { readonly start: number; readonly end: number; readonly max: number };
  };
  /** 0: every goal the bench checks was met; 1: a goal missed or a value wrong. */
  readonly exitCode: number;
  readonly tables: readonly BenchTable[];
  /** The bench's other lines: goals checked, per-D detail. */
  readonly notes: readonly string[];
}

/** Which bench the arguments pick. */
function benchOf(args: readonly string[]): string {
  const flag = BENCH_FLAGS.find((name) => args.includes(`--${name}`));
  return flag ?? 'kernel';
}

/**
 * Runs a bench with its standard output captured, then writes its record. Returns the bench's
 * exit code and the record's path (none for exit 2, a refused command line, which measured
 * nothing).
 */
export async function recordBench(
  args: readonly string[],
  run: () => Promise<number>,
): Promise<{ exitCode: number; path?: string }> {
  const startedAt = new Date();
  // The code that runs is the code at the start (others may commit while a long bench runs).
  const git = gitState();
  const load = { start: loadavg()[0] ?? 0, max: loadavg()[0] ?? 0 };
  const sampler = setInterval(() => (load.max = Math.max(load.max, loadavg()[0] ?? 0)), 5000);
  sampler.unref();
  const printed: string[] = [];
  const log = console.log;
  console.log = (...items: unknown[]): void => {
    printed.push(items.map(String).join(' '));
    log(...items);
  };
  let exitCode: number;
  try {
    exitCode = await run();
  } finally {
    console.log = log;
    clearInterval(sampler);
  }
  if (exitCode === 2) return { exitCode };
  const end = loadavg()[0] ?? 0;
  const bench = benchOf(args);
  const record: BenchRecord = {
    schema: 1,
    bench,
    command: ['npm run bench', ...(args.length ? ['--', ...args] : [])].join(' '),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    ...git,
    machine: {
      cpus: availableParallelism(),
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryBytes: totalmem(),
      freeMemoryBytes: freemem(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      load: { start: round2(load.start), end: round2(end), max: round2(Math.max(load.max, end)) },
    },
    exitCode,
    ...parseOutput(printed.join('\n')),
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = record.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const path = join(RESULTS_DIR, `${stamp}-${bench}.json`);
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return { exitCode, path };
}

/** Splits a bench's output into its Markdown tables and its other lines. */
export function parseOutput(text: string): Pick<BenchRecord, 'tables' | 'notes'> {
  const tables: BenchTable[] = [];
  const notes: string[] = [];
  let current: string[][] | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('|') && trimmed.endsWith('|')) {
      const cells = trimmed
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim());
      // The alignment row (---, ---:) carries no figures.
      if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
      if (current) current.push(cells);
      else tables.push({ columns: cells, rows: (current = []) });
      continue;
    }
    current = undefined;
    if (trimmed !== '') notes.push(line.trimEnd().replace(/^- /, ''));
  }
  return { tables, notes };
}

function gitState(): { commit: string; dirty: boolean } {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
