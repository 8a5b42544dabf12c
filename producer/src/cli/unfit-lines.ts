// What a sweep says about units that fit no live worker, and the byte sizes `wq status` and
// `wq plan` print.
import type { SweepProgress, UnfitUnit } from '@weak-queens/shared/client';

export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

/** Units listed by `unfitLines` before "… and k more". */
const UNFIT_SHOWN = 5;

/**
 * One line per unit no live worker can hold, and what to do about it:
 * `unit n12-d11 needs 20 MiB per slot; the largest live worker has 4 MiB: wq replan s-1, or …`
 */
export function unfitLines(p: SweepProgress): string[] {
  const unfit: UnfitUnit[] = p.sizes.flatMap((s) => s.unfit ?? []);
  if (unfit.length === 0) return [];
  const largest = unfit[0]?.largestSlotBytes ?? 0;
  const need = Math.max(...unfit.map((u) => u.bytes));
  const lines = unfit
    .slice(0, UNFIT_SHOWN)
    .map(
      (u) =>
        `  unit ${u.jobId} of N(${u.n}, ${u.depth}) needs ${formatBytes(u.bytes)} per slot (queue ${u.queue})`,
    );
  if (unfit.length > UNFIT_SHOWN) lines.push(`  … and ${unfit.length - UNFIT_SHOWN} more`);
  const has =
    largest > 0
      ? `the largest live worker has ${formatBytes(largest)} per slot`
      : 'no worker is live';
  return [
    `${unfit.length} unit(s) fit no live worker (${has}):`,
    ...lines,
    `  wq replan ${p.sweep.id} plans them for the workers there are, or start a worker with at least ${formatBytes(need)} per slot (WQ_SLOT_MEMORY, with WQ_WORKER_MEMORY at least that times its slots)`,
  ];
}
