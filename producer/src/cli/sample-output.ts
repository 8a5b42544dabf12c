// What `wq plan --sample` prints: per (n, D) the measured rate and the extrapolated core-seconds
// with their 95 % interval, per n and for the sweep, and the makespan on the planned cluster.
import type { ClusterPlan } from '@weak-queens/shared/client';
import type { DepthSample, SampleReport } from '../compute/plan-sample.js';

function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(2)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

function plusMinus(variance: number): string {
  return variance > 0 ? ` ± ${formatSeconds(1.96 * Math.sqrt(variance))}` : ' (exact)';
}

function how(d: DepthSample): string {
  if (d.fittedOn) {
    return `fitted on ${d.fittedOn.map((f) => `n = ${f.n} (rate ${f.rate.toFixed(2)})`).join(', ')}`;
  }
  if (d.pricedBy) {
    return `at the rate of N(${d.pricedBy.n}, ${d.pricedBy.depth}) (${d.estimate.rate.toFixed(2)})`;
  }
  const rate = d.estimate.rate.toFixed(2);
  if (d.estimate.source === 'whole') return `${d.sampled} run, rate ${rate}`;
  return `${d.sampled} sampled, the common rate ${rate}`;
}

export function sampleText(plan: ClusterPlan, report: SampleReport): string {
  const lines: string[] = [];
  const total = report.coreSeconds;
  lines.push(
    `sample: ${report.sampledUnits} unit(s) run here, ${formatSeconds(report.sampleSeconds)} of core time (${((100 * report.sampleSeconds) / Math.max(1e-9, total.coreSeconds)).toFixed(1)}% of the estimate)`,
  );
  const ns = [...new Set(report.depths.map((d) => d.n))];
  for (const n of ns) {
    const depths = report.depths.filter((d) => d.n === n);
    const size = depths.reduce(
      (t, d) => ({
        coreSeconds: t.coreSeconds + d.estimate.coreSeconds,
        variance: t.variance + d.estimate.variance,
      }),
      { coreSeconds: 0, variance: 0 },
    );
    lines.push(
      `n = ${n}: measured ${formatSeconds(size.coreSeconds)}${plusMinus(size.variance)} core time (model ${formatSeconds(depths.reduce((t, d) => t + d.modelSeconds, 0))})`,
    );
    for (const d of depths) {
      lines.push(
        `  D = ${String(d.depth).padStart(2)}  ${d.algorithm.padEnd(15)}  ${formatSeconds(d.estimate.coreSeconds).padStart(10)}${plusMinus(d.estimate.variance)}  (model ${formatSeconds(d.modelSeconds)}; ${how(d)})`,
      );
    }
  }
  const { cluster } = plan;
  const m = report.makespanSeconds;
  lines.push(
    `sweep, measured: ${formatSeconds(total.coreSeconds)} core time (95%: ${formatSeconds(total.low)} – ${formatSeconds(total.high)}; ${(total.coreSeconds / 3600).toFixed(2)} core-hours); makespan on ${cluster.workers} × ${cluster.slots} slot(s) ${formatSeconds(m.seconds)} (95%: ${formatSeconds(m.low)} – ${formatSeconds(m.high)})`,
  );
  for (const f of report.failures) {
    lines.push(`failed: a sampled unit of N(${f.n}, ${f.depth}): ${f.reason}`);
  }
  if (report.failures.length) {
    lines.push(
      `${report.failures.length} sampled unit(s) failed: their (n, D) are estimated from the others' rates, or the model's`,
    );
  }
  return lines.join('\n') + '\n';
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function sampleJson(plan: ClusterPlan, report: SampleReport): string {
  return (
    JSON.stringify({
      sample: {
        workers: plan.cluster.workers,
        slots: plan.cluster.slots,
        memoryBytes: plan.cluster.workerMemoryBytes,
        sampledUnits: report.sampledUnits,
        sampleSeconds: round(report.sampleSeconds),
        coreSeconds: round(report.coreSeconds.coreSeconds),
        coreSecondsLow: round(report.coreSeconds.low),
        coreSecondsHigh: round(report.coreSeconds.high),
        makespanSeconds: round(report.makespanSeconds.seconds),
        makespanLow: round(report.makespanSeconds.low),
        makespanHigh: round(report.makespanSeconds.high),
        depths: report.depths.map((d) => ({
          n: d.n,
          D: d.depth,
          algorithm: d.algorithm,
          units: d.units,
          sampled: d.sampled,
          modelSeconds: round(d.modelSeconds),
          rate: round(d.estimate.rate),
          coreSeconds: round(d.estimate.coreSeconds),
          halfWidth: round(1.96 * Math.sqrt(d.estimate.variance)),
          ...(d.fittedOn ? { fittedOn: d.fittedOn } : {}),
          ...(d.pricedBy ? { pricedBy: d.pricedBy } : {}),
        })),
        failures: report.failures,
      },
    }) + '\n'
  );
}
