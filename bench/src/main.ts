// `npm run bench [-- --full | --pipeline | --scale | --soak …]`: benchmarks, never timed assertions.
import { parseArgs } from 'node:util';
import { runKernelBench } from './kernel-bench.js';
import { runChaosBench } from './chaos.js';
import { runEtaBench } from './eta.js';
import { runVerifyCostBench } from './verify-cost.js';
import { runClassicBench } from './classic.js';
import { runClusterReplayBench } from './cluster-replay.js';
import { parseNSpec } from '@weak-queens/shared/contracts';
import { runFrontierBench } from './frontier.js';
import { runPipelineBench } from './pipeline.js';
import { runRedisMemoryBench } from './redis-memory.js';
import { runScaleBench } from './scale.js';
import { runSoakBench } from './soak.js';
import { runSseBench } from './sse.js';
import { recordBench } from './bench-record.js';
import { writeBenchmarks } from './render-benchmarks.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      pipeline: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      frontier: { type: 'boolean', default: false },
      classic: { type: 'boolean', default: false },
      ns: { type: 'string' },
      'no-peer': { type: 'boolean', default: false },
      'redis-memory': { type: 'boolean', default: false },
      chaos: { type: 'boolean', default: false },
      'cluster-replay': { type: 'boolean', default: false },
      eta: { type: 'boolean', default: false },
      'verify-cost': { type: 'boolean', default: false },
      workers: { type: 'string' },
      minutes: { type: 'string', default: '10' },
      soak: { type: 'boolean', default: false },
      sse: { type: 'boolean', default: false },
      n: { type: 'string' },
      every: { type: 'string' },
      samples: { type: 'string' },
      label: { type: 'string' },
      verify: { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'usage: npm run bench [-- --render] [-- --full] [-- --pipeline] [-- --scale [--full]] [-- --redis-memory] [-- --frontier [--full]] [-- --classic [--full | --ns 16-17] [--no-peer]] [-- --chaos [--minutes m]] [-- --cluster-replay [--workers 256]] [-- --eta [--ns 17]] [-- --verify-cost [--ns 1-15]] [-- --soak [--n 17] [--every 60] [--verify] [--samples FILE [--label TEXT]]] [-- --sse]\n  (default) S(13), S(14) per algorithm vs the C++ baseline; --full adds S(15)\n  --redis-memory: Redis bytes per queued and finished unit for a sweep of ~100,000 units\n  --frontier: S(16) (--full: and S(17)) on 2 workers against the peer program on 2 threads\n  --classic: Q(16)–Q(18) (--full: to Q(20); --ns: these n) on the pipeline with 2 workers against peer-classic on 2 threads (--no-peer: the pipeline alone, checked against OEIS)\n  --chaos: sweeps under random kill -9s, freezes, Redis restarts and network cuts for m minutes (default 10)\n  --cluster-replay: S(17) planned for 64 and 256 one-slot workers (--workers: only those), run here on one, its unit times replayed on those clusters\n  --eta: S(17) (--ns: these n) on 2 workers; the ETA at 25/50/75% of the core-seconds against the time that remained (goal ±25%)\n  --verify-cost: sweep 1..15 (--ns: these n) plain and with --verify on 2 default workers: wall against the core-seconds of both counts, AOF growth, fetches per job\n  --soak: S(n) (default 17; --verify: counted twice) on one worker with default settings and a private redis-server, sampled every --every s (default 60): worker RSS growth after warm-up, AOF size, log lines per hour, ETA error (--samples: from a JSON-lines file of samples recorded elsewhere, named --label)\n  --sse: the dashboard with 1,000 event-stream clients that never read: how fast a real page loads, the dashboard RSS and the kernel send queues\n  --render: only render docs/benchmarks.md from bench/results/*.json (every run records itself there and renders it)',
    );
    return 0;
  }
  // The options of --soak mean nothing to another bench: refused, not ignored.
  const soakOnly = (['n', 'every', 'samples', 'label'] as const).find(
    (k) => values[k] !== undefined,
  );
  const stray = soakOnly ?? (values.verify ? 'verify' : undefined);
  if (stray && !values.soak) {
    console.error(`--${stray}: only with --soak`);
    return 2;
  }
  if (values.render) {
    console.error(`wrote ${writeBenchmarks()}`);
    return 0;
  }
  if (values.chaos) {
    const minutes = Number(values.minutes);
    if (!(minutes > 0 && minutes <= 24 * 60)) {
      console.error(
        `--minutes: ${values.minutes.slice(0, 20)} is not allowed (a number of minutes from 0 to 1440)`,
      );
      return 2;
    }
    return (await runChaosBench({ minutes })) ? 0 : 1;
  }
  if (values['cluster-replay']) {
    const workers = values.workers?.split(',').map(Number);
    if (workers?.some((w) => !Number.isInteger(w) || w < 1)) {
      console.error(
        `--workers: ${values.workers} is not allowed (worker counts such as 256 or 64,256)`,
      );
      return 2;
    }
    return (await runClusterReplayBench(workers)) ? 0 : 1;
  }
  if (values['verify-cost']) {
    const ns = values.ns === undefined ? undefined : parseNSpec(values.ns);
    return (await runVerifyCostBench(ns ? { ns } : {})) ? 0 : 1;
  }
  if (values.eta) {
    const ns = values.ns === undefined ? undefined : parseNSpec(values.ns);
    return (await runEtaBench(ns ? { ns } : {})) ? 0 : 1;
  }
  if (values.sse) return (await runSseBench()) ? 0 : 1;
  if (values['redis-memory']) return (await runRedisMemoryBench()) ? 0 : 1;
  if (values.classic) {
    const ns = values.ns === undefined ? undefined : parseNSpec(values.ns);
    const peer = !values['no-peer'];
    return (await runClassicBench({ full: values.full, peer, ...(ns ? { ns } : {}) })) ? 0 : 1;
  }
  if (values['no-peer']) {
    console.error('--no-peer: only with --classic (the other benches are ratios to their peer)');
    return 2;
  }
  if (values.frontier) return (await runFrontierBench({ full: values.full })) ? 0 : 1;
  if (values.scale) return (await runScaleBench({ full: values.full })) ? 0 : 1;
  if (values.pipeline) return (await runPipelineBench()) ? 0 : 1;
  if (values.soak) return runSoak(values);
  return (await runKernelBench({ full: values.full })) ? 0 : 1;
}

/** `--soak`: its options checked, then the bench (which refuses an unusable samples file). */
async function runSoak(values: {
  n?: string;
  every?: string;
  samples?: string;
  label?: string;
  verify: boolean;
}): Promise<number> {
  const n = Number(values.n ?? '17');
  if (!/^\d+$/.test(values.n ?? '17') || n < 1 || n > 32) {
    console.error(`--n: ${values.n?.slice(0, 20)} is not allowed (one board size from 1 to 32)`);
    return 2;
  }
  const everySeconds = Number(values.every ?? '60');
  if (!(everySeconds > 0 && Number.isFinite(everySeconds))) {
    console.error(
      `--every: ${values.every?.slice(0, 20)} is not allowed (a positive number of seconds)`,
    );
    return 2;
  }
  if (values.samples !== undefined && (values.every !== undefined || values.verify)) {
    console.error(
      `--${values.verify ? 'verify' : 'every'}: not with --samples (those samples were taken elsewhere)`,
    );
    return 2;
  }
  return runSoakBench({
    n,
    everySeconds,
    verify: values.verify,
    ...(values.samples !== undefined ? { samplesFile: values.samples } : {}),
    ...(values.label !== undefined ? { label: values.label } : {}),
  });
}

// A run that measured something is recorded (bench/results/*.json) and docs/benchmarks.md
// rendered again; --help, --render and refused command lines are not.
const args = process.argv.slice(2);
const measures = !args.some((a) => ['--help', '-h', '--render'].includes(a));
const run: Promise<{ exitCode: number; path?: string }> = measures
  ? recordBench(args, main)
  : main().then((exitCode) => ({ exitCode }));
run.then(
  ({ exitCode: code, path }) => {
    if (path) console.error(`recorded ${path}; wrote ${writeBenchmarks()}`);
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
