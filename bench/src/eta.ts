// `npm run bench -- --eta [--ns 17]`: how well the ETA of a running sweep holds. S(17) (or the
// sizes given) on 2 worker processes of one core each, a fresh private redis-server, default
// settings; the sweep's ETA (what `wq status`, `wq sweep --wait` and the dashboard show) read
// every second, with the single-core seconds finished so far. Afterwards, at 25 %, 50 % and
// 75 % of the core-seconds done: the ETA then against the time that really remained.
import { LocalCluster } from './local-cluster.js';

const WORKERS = 2;
const POLL_MS = 1000;
const MARKS = [0.25, 0.5, 0.75] as const;
/** The goal: within ±25 % of the time that remained. */
const GOAL_ERROR = 0.25;

interface Reading {
  /** Seconds since the submission. */
  readonly at: number;
  /** Single-core seconds of the units finished by then. */
  readonly coreSeconds: number;
  readonly etaSeconds: number | null;
}

interface EtaMark {
  readonly share: number;
  readonly at: number;
  readonly etaSeconds: number | null;
  readonly remainingSeconds: number;
  /** eta ÷ remaining − 1. */
  readonly error: number | null;
}

interface EtaBenchResult {
  readonly bench: 'eta';
  readonly command: string;
  readonly date: string;
  readonly ns: readonly number[];
  readonly workers: number;
  readonly wallSeconds: number;
  readonly coreSeconds: number;
  readonly units: number;
  readonly marks: readonly EtaMark[];
  readonly goal: string;
  readonly ok: boolean;
}

export async function runEtaBench(options: { ns?: readonly number[] }): Promise<boolean> {
  const ns = options.ns ?? [17];
  console.error(
    `  S(${ns.join(', ')}) on ${WORKERS} worker processes × 1 core, default settings …`,
  );
  const cluster = await LocalCluster.start({ workers: WORKERS, concurrency: 1 });
  const readings: Reading[] = [];
  let wallSeconds: number;
  let coreSeconds: number;
  let units: number;
  try {
    const { client } = cluster;
    const started = performance.now();
    const submission = await client.submit(ns);
    units = Object.values(submission.sweep.units).reduce((a, b) => a + b, 0);
    const coreDone = async (): Promise<number> => {
      let total = 0;
      const sizes = await client.store.progress(ns, { unitSeconds: true });
      for (const size of sizes.values()) {
        for (const d of size.depths.values()) total += d.seconds;
        for (const seconds of size.unitSeconds ?? []) total += seconds;
      }
      return total;
    };
    let polling = Promise.resolve();
    await client.waitFor(submission.sweep.id, {
      intervalMs: POLL_MS,
      onProgress: (p) => {
        const at = (performance.now() - started) / 1000;
        // One reading at a time; the store read is a few milliseconds.
        polling = polling.then(async () => {
          if (p.status !== 'running') return;
          readings.push({ at, coreSeconds: await coreDone(), etaSeconds: p.etaSeconds });
        });
      },
    });
    await polling;
    wallSeconds = (performance.now() - started) / 1000;
    coreSeconds = await coreDone();
  } finally {
    await cluster.stop();
  }
  const marks = MARKS.map((share): EtaMark => {
    const reading = readings.find((r) => r.coreSeconds >= share * coreSeconds);
    const at = reading?.at ?? wallSeconds;
    const remainingSeconds = wallSeconds - at;
    const etaSeconds = reading?.etaSeconds ?? null;
    return {
      share,
      at,
      etaSeconds,
      remainingSeconds,
      error:
        etaSeconds === null || remainingSeconds <= 0 ? null : etaSeconds / remainingSeconds - 1,
    };
  });
  const ok = marks.every((m) => m.error !== null && Math.abs(m.error) <= GOAL_ERROR);
  const result: EtaBenchResult = {
    bench: 'eta',
    command: `npm run bench -- --eta --ns ${ns.join(',')}`,
    date: new Date().toISOString(),
    ns,
    workers: WORKERS,
    wallSeconds,
    coreSeconds,
    units,
    marks,
    goal: `ETA within ±${GOAL_ERROR * 100}% of the time remaining at ${MARKS.map((m) => `${m * 100}%`).join(', ')} of the core-seconds`,
    ok,
  };
  const rows = [
    '| core-seconds done | at s | ETA s | remained s | error |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...marks.map(
      (m) =>
        `| ${m.share * 100}% | ${m.at.toFixed(1)} | ${m.etaSeconds?.toFixed(1) ?? '—'} | ${m.remainingSeconds.toFixed(1)} | ${m.error === null ? '—' : `${(m.error * 100).toFixed(0)}%`} |`,
    ),
  ];
  console.log(
    [
      ...rows,
      '',
      `S(${ns.join(', ')}): ${wallSeconds.toFixed(1)} s wall, ${coreSeconds.toFixed(1)} core-seconds, ${units} units; ${result.goal}: ${ok ? 'met' : 'NOT met'}`,
      JSON.stringify(result),
    ].join('\n'),
  );
  return ok;
}
