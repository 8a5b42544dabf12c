// `npm run bench -- --soak [--n 17] [--every 60] [--verify] [--samples FILE [--label TEXT]]`:
// whether a sweep of hours stays healthy. One worker process with the user's defaults (a slot
// per core, log level info) and a private redis-server with AOF, as deployed; S(n) submitted,
// and sampled every `--every` seconds until it is done: each worker's resident memory, Redis
// memory, the AOF's size and rewrites, the worker's log lines, and the progress `wq status`
// shows (units done, ETA). The goals are the ones a long run breaks first: worker memory that
// keeps growing after a warm-up, an AOF that grows without bound, logs that fill a disk, an ETA
// that misleads. `--samples FILE` makes the same figures from samples recorded elsewhere (one
// JSON sample per line), e.g. of a sweep that ran for hours on a deployment.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { PipelineClient } from '@weak-queens/shared/client';
import { exitOf, spawnWorkerProcess } from '@weak-queens/producer';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig } from '@weak-queens/shared/contracts';

/** One reading of the deployment; also the line format of a `--samples` file. */
interface Sample {
  /** Epoch seconds. */
  readonly at: number;
  /** VmRSS of each worker process, by pid. */
  readonly rssKiB: Readonly<Record<string, number>>;
  /** INFO memory used_memory. */
  readonly usedMemory: number;
  /** INFO persistence aof_current_size. */
  readonly aofBytes: number;
  /** INFO persistence aof_rewrites (since the server started). */
  readonly aofRewrites: number;
  /** INFO persistence aof_rewrite_in_progress. */
  readonly rewriting: boolean;
  /** The worker's log lines so far. */
  readonly logLines: number;
  readonly unitsDone: number;
  readonly units: number;
  readonly etaSeconds: number | null;
  /** The ETA the dashboard's sweep list showed at the same moment, when a recorder read it. */
  readonly pageEtaSeconds?: number | null;
  readonly status: string;
}

interface SoakOptions {
  readonly n: number;
  readonly everySeconds: number;
  readonly verify: boolean;
  /** Read these samples instead of running anything. */
  readonly samplesFile?: string;
  /** What was sampled, in the printed lines (default `S(<n>)`). */
  readonly label?: string;
}

const GOALS = {
  /** Worker RSS after warm-up may grow by this share at most. */
  rssGrowth: 0.1,
  aofBytes: 2 ** 30,
  logLinesPerHour: 1000,
  /** ETA ÷ the time that remained − 1, either way. */
  etaError: 0.15,
} as const;
const ETA_MARKS = [0.25, 0.5, 0.75] as const;
/** The per-sample table stays readable in the docs whatever the run's length. */
const MAX_ROWS = 30;
/** How often the sweep's status is read between samples, so that its end is seen promptly. */
const POLL_MS = 1000;
const LIVE_TIMEOUT_MS = 60_000;
const MiB = 2 ** 20;

/** Returns the exit code: 0 every goal met, 1 one missed, 2 a samples file that cannot be used. */
export async function runSoakBench(options: SoakOptions): Promise<number> {
  const label = options.label ?? `S(${options.n})`;
  if (options.samplesFile === undefined) {
    const { samples, notes } = await sampleSweep(options);
    console.log(notes.join('\n'));
    return report(label, samples) ? 0 : 1;
  }
  const read = readSamples(options.samplesFile);
  if (typeof read === 'string') {
    console.error(`--samples: ${read}`);
    return 2;
  }
  console.log(`${read.length} samples from ${options.samplesFile}, recorded elsewhere.`);
  return report(label, read) ? 0 : 1;
}

/** Runs the deployment and the sweep; the samples, and lines saying what ran and how it ended. */
async function sampleSweep(options: SoakOptions): Promise<{ samples: Sample[]; notes: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'wq-bench-soak-'));
  let server: RedisServer | undefined;
  let redis: Redis | undefined;
  let client: PipelineClient | undefined;
  let worker: ChildProcess | undefined;
  // Ctrl-C ends the sampling, not the bench: hours of samples are still worth their figures.
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    server = await RedisServer.start({ dir: join(dir, 'redis') });
    // The user's defaults: no WQ_CONCURRENCY (a slot per core) and the default log level, since
    // the log volume of a default deployment is one of the figures.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDIS_URL: server.url,
      WQ_PREFIX: '{wq-bench}',
    };
    delete env.WQ_CONCURRENCY;
    delete env.LOG_LEVEL;
    const info = (redis = new Redis(server.url));
    const pipeline = (client = new PipelineClient(compileConfig(env)));
    // Its own process group: a Ctrl-C reaches only this process, which samples the worker once
    // more before it stops it.
    const child = (worker = spawnWorkerProcess({
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    }));
    const logs = { lines: 0 };
    // Counted, not shown; and read, so that a full pipe never blocks the worker's logging.
    child.stderr?.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) logs.lines++;
    });
    const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
    const deadline = Date.now() + LIVE_TIMEOUT_MS;
    while ((await pipeline.registry.liveWorkers()).length < 1) {
      if (gone()) throw new Error(`the worker exited (code ${child.exitCode}) before it was live`);
      if (Date.now() > deadline) throw new Error('the worker was not live within 60 s');
      await sleep(100);
    }
    const submission = await pipeline.submit([options.n], options.verify ? { verify: true } : {});
    const sweepId = submission.sweep.id;
    const pids = child.pid === undefined ? [] : [child.pid];
    const take = async (): Promise<Sample> => {
      const p = await pipeline.progress(sweepId, { eta: true });
      return {
        ...(await deployment(info, pids)),
        logLines: logs.lines,
        unitsDone: p.unitsDone,
        units: p.units,
        etaSeconds: p.etaSeconds,
        status: p.status,
      };
    };
    console.error(
      `  S(${options.n})${options.verify ? ' --verify' : ''} on one worker process with default settings, sampled every ${options.everySeconds} s …`,
    );
    const what = `S(${options.n})${options.verify ? ' with --verify' : ''}`;
    const notes = [
      `One worker process with default settings (a slot per core, log level info) and a private ` +
        `redis-server with AOF; ${what} sampled every ${options.everySeconds} s.`,
    ];
    const samples = [await take()];
    const start = samples[0]!.at;
    echo(samples[0]!, start);
    // On a fixed grid from the first sample, so that the reads in between do not shift it.
    let next = start + options.everySeconds;
    const pollMs = Math.min(POLL_MS, options.everySeconds * 1000);
    for (;;) {
      await sleep(pollMs, undefined, { signal: interrupt.signal }).catch(() => undefined);
      if (interrupt.signal.aborted || gone()) {
        samples.push(await take());
        const why = interrupt.signal.aborted
          ? 'the run was interrupted'
          : `the worker exited (code ${child.exitCode ?? child.signalCode})`;
        notes.push(`Sampling ended early: ${why} before the sweep was done.`);
        break;
      }
      const { status } = await pipeline.progress(sweepId);
      const over = status !== 'queued' && status !== 'running';
      if (over || Date.now() / 1000 >= next) {
        const sample = await take();
        samples.push(sample);
        echo(sample, start);
        while (next <= sample.at) next += options.everySeconds;
      }
      if (over) {
        if (status !== 'done') notes.push(`The sweep ended ${status}, not done.`);
        break;
      }
    }
    return { samples, notes };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client?.close();
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
    if (worker) await exitOf(worker);
    redis?.disconnect();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What one sample reads of the processes and of Redis (all but progress and logs). */
async function deployment(
  redis: Redis,
  pids: readonly number[],
): Promise<
  Pick<Sample, 'at' | 'rssKiB' | 'usedMemory' | 'aofBytes' | 'aofRewrites' | 'rewriting'>
> {
  const at = Date.now() / 1000;
  const rssKiB: Record<string, number> = {};
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      if (kib !== undefined) rssKiB[String(pid)] = Number(kib);
    } catch {
      // exited: no reading
    }
  }
  const info = `${await redis.info('memory')}\n${await redis.info('persistence')}`;
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    at,
    rssKiB,
    usedMemory: field('used_memory'),
    aofBytes: field('aof_current_size'),
    aofRewrites: field('aof_rewrites'),
    rewriting: field('aof_rewrite_in_progress') === 1,
  };
}

/** One line per sample on the terminal (not in the record), so that a run of hours shows life. */
function echo(s: Sample, start: number): void {
  const rss = Object.values(s.rssKiB)
    .map((kib) => (kib / 1024).toFixed(0))
    .join(', ');
  console.error(
    `  ${((s.at - start) / 60).toFixed(1)} min: ${s.unitsDone}/${s.units} units, ETA ${s.etaSeconds?.toFixed(0) ?? '—'} s, ` +
      `RSS ${rss || '—'} MiB, Redis ${(s.usedMemory / MiB).toFixed(1)} MiB, AOF ${(s.aofBytes / MiB).toFixed(1)} MiB, ${s.logLines} log lines, ${s.status}`,
  );
}

/** The samples of a JSON-lines file, oldest first; or what is wrong with it. */
function readSamples(file: string): Sample[] | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return `cannot read ${file} (${err instanceof Error ? err.message : String(err)})`;
  }
  const samples: Sample[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return `${file} line ${i + 1} is not JSON`;
    }
    const wrong = sampleError(value);
    if (wrong) return `${file} line ${i + 1}: ${wrong}`;
    samples.push(value as Sample);
  }
  // One sample spans no time: nothing of a run's course can be read from it.
  if (samples.length < 2)
    return `${file} holds ${samples.length === 0 ? 'no sample' : 'only 1 sample'}; at least 2 are needed`;
  return samples.sort((a, b) => a.at - b.at);
}

/** Why a parsed line is not a sample (undefined: it is one). */
function sampleError(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'not a JSON object';
  const s = value as Record<string, unknown>;
  const finite = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x);
  for (const key of [
    'at',
    'usedMemory',
    'aofBytes',
    'aofRewrites',
    'logLines',
    'unitsDone',
    'units',
  ])
    if (!finite(s[key])) return `${key} is not a number`;
  const rss = s.rssKiB;
  if (typeof rss !== 'object' || rss === null || Array.isArray(rss))
    return 'rssKiB is not an object of pid: KiB';
  if (!Object.values(rss).every(finite)) return 'rssKiB holds a value that is not a number';
  if (typeof s.rewriting !== 'boolean') return 'rewriting is not true or false';
  if (s.etaSeconds !== null && !finite(s.etaSeconds)) return 'etaSeconds is not a number or null';
  if (s.pageEtaSeconds !== undefined && s.pageEtaSeconds !== null && !finite(s.pageEtaSeconds))
    return 'pageEtaSeconds is not a number, null or absent';
  if (typeof s.status !== 'string') return 'status is not a string';
  return undefined;
}

interface Goal {
  readonly figure: string;
  readonly value: string;
  readonly goal: string;
  readonly met: boolean;
}

/** Prints the goals, the per-sample table and the summary line; whether every goal was met. */
function report(label: string, samples: readonly Sample[]): boolean {
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  // The sweep ended when a sample first saw it done; a recorder may go on sampling after that.
  const endSample = samples.find((s) => s.status === 'done') ?? last;
  const end = endSample.at;
  const wall = end - first.at;
  const goals = [
    rssGoal(samples, wall),
    aofGoal(samples),
    logGoal(first, endSample),
    ...ETA_MARKS.map((share) => etaGoal(samples, share, first.at, end, 'etaSeconds')),
    // The page's ETA, where the recorder read it (a live --soak runs no dashboard).
    ...(samples.some((s) => s.pageEtaSeconds !== undefined)
      ? ETA_MARKS.map((share) => etaGoal(samples, share, first.at, end, 'pageEtaSeconds'))
      : []),
  ];
  const ok = goals.every((g) => g.met);
  console.log(
    [
      '| figure | value | goal | met |',
      '| --- | ---: | --- | --- |',
      ...goals.map((g) => `| ${g.figure} | ${g.value} | ${g.goal} | ${g.met ? 'yes' : 'no'} |`),
      '',
      ...sampleTable(samples, end),
      '',
      `${label}: ${wall.toFixed(0)} s wall, ${endSample.units} units, peak worker RSS ${peakRssMiB(samples).toFixed(1)} MiB, goals ${ok ? 'met' : 'NOT met'}`,
    ].join('\n'),
  );
  return ok;
}

/**
 * Growth of worker memory once warm: per pid, its highest RSS after its warm-up against its RSS
 * when the warm-up ended; the worst pid. A pid is warm an hour after it was first seen (a
 * quarter of the run when the run is shorter than 2 hours); one seen for less is skipped.
 */
function rssGoal(samples: readonly Sample[], wall: number): Goal {
  const warmUp = wall >= 7200 ? 3600 : wall / 4;
  const figure = `worker RSS growth after a warm-up of ${span(warmUp)}`;
  const goal = `≤ ${GOALS.rssGrowth * 100} %`;
  let worst: { pid: string; growth: number; from: number; to: number } | undefined;
  for (const pid of pidsOf(samples)) {
    const seen = samples.filter((s) => s.rssKiB[pid] !== undefined);
    const warmAt = seen[0]!.at + warmUp;
    const warm = seen.filter((s) => s.at >= warmAt);
    const from = warm[0]?.rssKiB[pid];
    if (!from) continue;
    const to = Math.max(...warm.map((s) => s.rssKiB[pid]!));
    const growth = to / from - 1;
    if (!worst || growth > worst.growth) worst = { pid, growth, from, to };
  }
  if (!worst) return { figure, value: '— (no worker seen through a warm-up)', goal, met: false };
  return {
    figure,
    value: `${percent(worst.growth)} (pid ${worst.pid}: ${(worst.from / 1024).toFixed(1)} → ${(worst.to / 1024).toFixed(1)} MiB)`,
    goal,
    met: worst.growth <= GOALS.rssGrowth,
  };
}

function aofGoal(samples: readonly Sample[]): Goal {
  const peak = Math.max(...samples.map((s) => s.aofBytes));
  // aof_rewrites counts from the server's start, which may be before the first sample.
  const rewrites = Math.max(...samples.map((s) => s.aofRewrites)) - samples[0]!.aofRewrites;
  const rewrote = rewrites > 0 || samples.some((s) => s.rewriting);
  const ran =
    rewrites > 0
      ? `${rewrites} rewrite${rewrites === 1 ? '' : 's'} ran`
      : rewrote
        ? 'a rewrite ran'
        : 'no rewrite ran';
  return {
    figure: 'peak AOF size',
    value: `${(peak / MiB).toFixed(1)} MiB; ${ran}`,
    goal: '≤ 1 GiB',
    met: peak <= GOALS.aofBytes,
  };
}

/** The worker's log lines between the first sample and the end, per hour. */
function logGoal(first: Sample, end: Sample): Goal {
  const hours = (end.at - first.at) / 3600;
  const lines = end.logLines - first.logLines;
  const goal = `≤ ${GOALS.logLinesPerHour.toLocaleString('en-US')}`;
  const figure = 'worker log lines per hour';
  if (hours <= 0) return { figure, value: '— (no time between samples)', goal, met: false };
  const rate = lines / hours;
  return {
    figure,
    value: `${Math.round(rate).toLocaleString('en-US')} (${lines.toLocaleString('en-US')} in ${span(end.at - first.at)})`,
    goal,
    met: rate <= GOALS.logLinesPerHour,
  };
}

/** The ETA of the sample nearest this share of the wall time against the time that remained. */
function etaGoal(
  samples: readonly Sample[],
  share: number,
  start: number,
  end: number,
  shown: 'etaSeconds' | 'pageEtaSeconds',
): Goal {
  const target = start + share * (end - start);
  const before = samples.filter((s) => s.at <= end && s[shown] !== undefined);
  const where = shown === 'etaSeconds' ? 'wq status' : 'the dashboard';
  const figure = `ETA error at ${share * 100} % of the wall time (${where})`;
  const goal = `within ±${GOALS.etaError * 100} %`;
  if (before.length === 0) return { figure, value: '— (not recorded)', goal, met: false };
  const nearest = before.reduce((a, b) =>
    Math.abs(b.at - target) < Math.abs(a.at - target) ? b : a,
  );
  // A sample far from the mark says nothing of it (a recorder that began late, or a gap).
  if (Math.abs(nearest.at - target) > 0.05 * (end - start)) {
    return { figure, value: '— (no sample near it)', goal, met: false };
  }
  const remained = end - nearest.at;
  const eta = nearest[shown] ?? null;
  const at = `at ${span(nearest.at - start)}`;
  if (eta === null || remained <= 0) {
    return {
      figure,
      value: `— (${at}: no ETA, ${remained.toFixed(0)} s remained)`,
      goal,
      met: false,
    };
  }
  const error = eta / remained - 1;
  return {
    figure,
    value: `${percent(error)} (${at}: ETA ${eta.toFixed(0)} s, ${remained.toFixed(0)} s remained)`,
    goal,
    met: Math.abs(error) <= GOALS.etaError,
  };
}

/** At most MAX_ROWS samples, evenly spaced, the first and the last always among them. */
function sampleTable(samples: readonly Sample[], end: number): string[] {
  const start = samples[0]!.at;
  const rows = Math.min(MAX_ROWS, samples.length);
  const picked =
    rows === 1
      ? [0]
      : [
          ...new Set(
            Array.from({ length: rows }, (_, i) =>
              Math.round((i * (samples.length - 1)) / (rows - 1)),
            ),
          ),
        ];
  const pids = pidsOf(samples);
  return [
    '| min | units done | ETA s | remained s | RSS MiB | Redis MiB | AOF MiB | log lines |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...picked.map((i) => {
      const s = samples[i]!;
      const rss = pids
        .map((pid) => s.rssKiB[pid])
        .filter((kib) => kib !== undefined)
        .map((kib) => (kib / 1024).toFixed(1))
        .join(', ');
      return `| ${((s.at - start) / 60).toFixed(1)} | ${s.unitsDone} | ${s.etaSeconds?.toFixed(0) ?? '—'} | ${s.at <= end ? (end - s.at).toFixed(0) : '—'} | ${rss || '—'} | ${(s.usedMemory / MiB).toFixed(1)} | ${(s.aofBytes / MiB).toFixed(1)} | ${s.logLines} |`;
    }),
  ];
}

/** Every worker pid, in the order they were first seen. */
function pidsOf(samples: readonly Sample[]): string[] {
  return [...new Set(samples.flatMap((s) => Object.keys(s.rssKiB)))];
}

function peakRssMiB(samples: readonly Sample[]): number {
  return Math.max(0, ...samples.flatMap((s) => Object.values(s.rssKiB))) / 1024;
}

function percent(x: number): string {
  return `${x >= 0 ? '+' : '-'}${Math.abs(x * 100).toFixed(1)} %`;
}

/** A span in the unit that reads best: seconds, minutes, or hours. */
function span(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(0)} s`;
  return seconds < 7200 ? `${(seconds / 60).toFixed(1)} min` : `${(seconds / 3600).toFixed(1)} h`;
}
