// `wq plan <ns> [--workers k] [--slots c] [--memory m] [--sample k] [--json]`: a dry run of the
// planner for a cluster, with the estimated core-seconds, peak memory and makespan; with
// --sample, measured on a sample of its units. A described cluster needs no Redis; without
// --workers it plans for the live workers.
import {
  type Calibration,
  compileConfig,
  defaultSlots,
  defaultWorkerMemory,
  InvalidInputError,
  parseByteSize,
  positiveInteger,
} from '@weak-queens/shared/contracts';
import type { ClusterDescription, ClusterPlan } from '@weak-queens/shared/client';
import { parseIntegerOption } from '@weak-queens/shared/process';
import { defineCommand } from '../command.js';
import { openPipelineClient } from '../pipeline-connection.js';
import { formatBytes } from '../unfit-lines.js';
import { N_SPEC, parseSizes } from './n-spec.js';

export const planCommand = defineCommand(
  {
    positionals: [{ ...N_SPEC, description: '"17", "4-12" or "4,6,10-12"' }],
    options: {
      workers: {
        type: 'string',
        value: 'k',
        allowed: 'an integer from 1 to 100000',
        description: `plan for k worker machines (processes) alike; without it, for the live
workers in Redis (REDIS_URL)`,
      },
      slots: {
        type: 'string',
        value: 'c',
        allowed: 'an integer from 1 to 4096',
        description: `units one worker runs at once (default: as a worker here would take it,
WQ_CONCURRENCY, else this machine's cores: ${defaultSlots()})`,
      },
      memory: {
        type: 'string',
        value: 'm',
        allowed: 'a size such as 8GiB or 512MiB',
        description: `memory one worker may use, e.g. 8GiB or 512MiB; its slots share it (default: as
a worker here would take it, WQ_WORKER_MEMORY and WQ_SLOT_MEMORY, else derived from
this machine: ${formatBytes(defaultWorkerMemory())} for ${defaultSlots()} slots)`,
      },
      sample: {
        type: 'string',
        value: 'k',
        allowed: "an integer from 1 to the plan's units, or all",
        description: `run k of the plan's units, drawn at random (in this process, timed by
their CPU time; nothing is stored), and extrapolate core-seconds and makespan
per D and for the sweep with 95% intervals, from the measured rates;
a window transfer is costed by the same transfer at smaller n;
\`all\` runs every unit as planned, transfers whole: the measured cost`,
      },
      json: {
        type: 'boolean',
        description: `one line per n: {"n":17,"units":…,"coreSeconds":…,"makespanSeconds":…,
"efficiency":…,"depths":[{"D":9,"algorithm":"window-transfer","units":1,
"bytes":…,"coreSeconds":…}]}, then {"sweep":{"makespanSeconds":…,"efficiency":…}}`,
      },
    },
    notes: `Per (n, D) the planner picks the algorithm and unit size that minimise the estimated makespan
on that cluster. Estimates use the calibration stored in Redis when REDIS_URL is set and
reachable (measured against earlier runs), else the kernel's own cost model. The makespan is
simulated as the queue runs units: largest first, each on the slot that frees up first.
Efficiency = core-seconds ÷ (workers × slots × makespan).`,
  },
  async ({ values, positionals }) => {
    const ns = parseSizes(positionals[0] ?? '');
    const { workers: workersFlag, slots: slotsFlag, memory: memoryFlag } = values;
    const sample =
      values.sample === undefined || values.sample === 'all'
        ? values.sample
        : parseIntegerOption('--sample', values.sample, 1, Number.MAX_SAFE_INTEGER);
    const config = compileConfig(process.env);
    let cluster: ClusterDescription;
    let calibration: Calibration = {};
    if (workersFlag === undefined) {
      if (slotsFlag !== undefined || memoryFlag !== undefined) {
        throw new InvalidInputError(
          '--slots/--memory',
          slotsFlag ?? memoryFlag,
          'used with --workers k',
        );
      }
      const client = await openPipelineClient(config, 'plan');
      try {
        await client.ping();
        const live = await client.registry.liveWorkers();
        if (live.length === 0) {
          throw new InvalidInputError(
            '--workers',
            '(absent)',
            'a number of workers, or live workers in Redis (none is running)',
          );
        }
        cluster = await client.cluster();
        calibration = await client.store.calibration();
      } finally {
        await client.close();
      }
    } else {
      const workers = positiveInteger('--workers', workersFlag, 1, 100_000);
      const slots =
        slotsFlag === undefined
          ? config.concurrency
          : positiveInteger('--slots', slotsFlag, 1, 4096);
      // A described worker's memory is shared among its slots; otherwise a worker as this
      // configuration would start it, with these slots (the one derivation, worker-memory.ts).
      const memory =
        memoryFlag === undefined
          ? compileConfig(process.env, { concurrency: slots })
          : { workerMemoryBytes: parseByteSize('--memory', memoryFlag, 0) };
      cluster = {
        workers,
        slots,
        workerMemoryBytes: memory.workerMemoryBytes,
        ...('slotMemoryBytes' in memory ? { slotMemoryBytes: memory.slotMemoryBytes } : {}),
      };
      if (process.env.REDIS_URL) calibration = await storedCalibration(config);
    }
    const { planForCluster } = await import('@weak-queens/shared/client');
    const plan = planForCluster(ns, cluster, {
      targetSeconds: config.targetSeconds,
      calibration,
    });
    if (sample === undefined) {
      process.stdout.write(values.json ? planJson(plan) : planText(plan));
      return 0;
    }
    const { planUnitCount, samplePlan } = await import('../../compute/plan-sample.js');
    const units = planUnitCount(plan, ns);
    if (sample !== 'all' && sample > units) {
      throw new InvalidInputError(
        '--sample',
        values.sample,
        `an integer from 1 to ${units} (the plan's units)`,
      );
    }
    if (!values.json) process.stdout.write(planText(plan));
    const report = await samplePlan(plan, ns, { k: sample });
    const { sampleJson, sampleText } = await import('../sample-output.js');
    process.stdout.write(values.json ? sampleJson(plan, report) : sampleText(plan, report));
    // Failed units leave their strata on the model: the estimate says so, and so does the code.
    return report.failures.length ? 1 : 0;
  },
);

/** The stored calibration when Redis answers within a few seconds, else none. */
async function storedCalibration(config: ReturnType<typeof compileConfig>): Promise<Calibration> {
  // A described cluster needs no Redis: one that does not answer (after the usual few tries)
  // only costs the calibration.
  let client: Awaited<ReturnType<typeof openPipelineClient>> | undefined;
  try {
    client = await openPipelineClient(config, 'plan', { waitOutOutage: false });
    const open = client;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), 3000).unref(),
    );
    return await Promise.race([open.ping().then(() => open.store.calibration()), timeout]);
  } catch {
    process.stderr.write(
      'wq plan: Redis not reachable; planning with the uncalibrated cost model\n',
    );
    return {};
  } finally {
    await client?.close();
  }
}

function planJson(plan: ClusterPlan): string {
  const lines = plan.sizes.map((size) =>
    JSON.stringify({
      n: size.n,
      units: size.units,
      coreSeconds: round(size.coreSeconds),
      makespanSeconds: round(plan.makespanSeconds),
      efficiency: round(plan.efficiency),
      depths: size.depths.map((d) => ({
        D: d.depth,
        algorithm: d.algorithm,
        units: d.units,
        bytes: d.bytes,
        coreSeconds: round(d.coreSeconds),
        ...(d.transferDoesNotFit
          ? {
              transferDoesNotFit: {
                bytes: Math.ceil(d.transferDoesNotFit.bytes),
                coreSeconds: round(d.transferDoesNotFit.coreSeconds),
                capBytes: d.transferDoesNotFit.workerMemoryBytes,
              },
            }
          : {}),
        ...(d.transferTooManyWindows
          ? {
              transferTooManyWindows: {
                windows: Math.round(d.transferTooManyWindows.windows),
                maxWindows: Math.floor(d.transferTooManyWindows.maxWindows),
                coreSeconds: round(d.transferTooManyWindows.coreSeconds),
              },
            }
          : {}),
      })),
    }),
  );
  lines.push(
    JSON.stringify({
      sweep: {
        workers: plan.cluster.workers,
        slots: plan.cluster.slots,
        memoryBytes: plan.cluster.workerMemoryBytes,
        units: plan.sizes.reduce((t, s) => t + s.units, 0),
        coreSeconds: round(plan.coreSeconds),
        makespanSeconds: round(plan.makespanSeconds),
        efficiency: round(plan.efficiency),
      },
    }),
  );
  return lines.join('\n') + '\n';
}

function planText(plan: ClusterPlan): string {
  const { cluster } = plan;
  const lines = [
    `cluster: ${cluster.workers} worker(s) × ${cluster.slots} slot(s), ${formatBytes(cluster.workerMemoryBytes)} each; units up to ${round(plan.targetSeconds)} s`,
  ];
  for (const size of plan.sizes) {
    lines.push(`n = ${size.n}: ${size.units} units, ${formatSeconds(size.coreSeconds)} core time`);
    for (const d of size.depths) {
      lines.push(
        `  D = ${String(d.depth).padStart(2)}  ${d.algorithm.padEnd(15)}  ${String(d.units).padStart(6)} unit(s)  ${formatSeconds(d.coreSeconds).padStart(10)}  ${formatBytes(d.bytes).padStart(9)}`,
      );
      const huge = d.transferTooManyWindows;
      if (huge) {
        lines.push(
          `         the window transfer (${formatSeconds(huge.coreSeconds)}) would index ${formatCount(huge.windows)} windows, above the ${formatCount(huge.maxWindows)} it plans with: ${d.algorithm} instead, ${formatSeconds(d.coreSeconds)} core time`,
        );
      }
      const unfit = d.transferDoesNotFit;
      if (unfit) {
        lines.push(
          `         the window transfer (${formatSeconds(unfit.coreSeconds)}) needs ${formatBytes(unfit.bytes)}, above the ${formatBytes(unfit.workerMemoryBytes)} a worker gives it: ${d.algorithm} instead, ${formatSeconds(d.coreSeconds)} core time`,
        );
      }
    }
  }
  lines.push(
    `sweep: ${formatSeconds(plan.coreSeconds)} core time (${round(plan.coreSeconds / 3600)} core-hours); makespan ${formatSeconds(plan.makespanSeconds)}; efficiency ${(plan.efficiency * 100).toFixed(0)}%`,
  );
  return lines.join('\n') + '\n';
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A large count with two significant decimals: 5.9e9. */
function formatCount(count: number): string {
  return count.toExponential(1).replace('e+', 'e');
}

function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}
