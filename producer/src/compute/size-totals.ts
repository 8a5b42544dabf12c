import type { WorkUnit } from '@weak-queens/shared/kernel';

/** N(n, D) for every D of one n (or those asked for), and their sum S(n) when all were. */
export interface SizeResult {
  readonly n: number;
  /** Indexed by D; undefined for a D not counted. */
  readonly counts: readonly (bigint | undefined)[];
  /** S(n): undefined unless every D was counted. */
  readonly total: bigint | undefined;
}

/**
 * Adds unit counts into N(n, D) and hands out each n as soon as it and every smaller n are
 * complete, so results stream in size order however the units were scheduled.
 */
export class SizeTotals {
  private readonly sizes: number[];
  private readonly counts = new Map<number, bigint[]>();
  private readonly pending = new Map<number, number>();
  private next = 0;

  constructor(
    private readonly units: readonly WorkUnit[],
    sizes: readonly number[],
    /** The D counted of each n (absent: every D). */
    private readonly depths?: ReadonlySet<number>,
  ) {
    this.sizes = [...sizes].sort((a, b) => a - b);
    for (const n of this.sizes) {
      this.counts.set(n, new Array<bigint>(n).fill(0n));
      this.pending.set(n, 0);
    }
    for (const unit of units) this.pending.set(unit.n, (this.pending.get(unit.n) ?? 0) + 1);
  }

  /** Records unit `index`'s count; returns the sizes that became complete, in order. */
  add(index: number, count: bigint): SizeResult[] {
    const unit = this.units[index];
    const counts = unit && this.counts.get(unit.n);
    if (!unit || !counts) throw new RangeError(`no unit ${index} in this batch`);
    counts[unit.depth] = (counts[unit.depth] ?? 0n) + count;
    this.pending.set(unit.n, (this.pending.get(unit.n) ?? 0) - 1);
    return this.drain();
  }

  /** Sizes that are complete now (also those that needed no units at all). */
  drain(): SizeResult[] {
    const ready: SizeResult[] = [];
    for (;;) {
      const n = this.sizes[this.next];
      if (n === undefined || (this.pending.get(n) ?? 0) > 0) break;
      const all = this.counts.get(n) ?? [];
      const counted = (d: number): boolean => this.depths === undefined || this.depths.has(d);
      const counts = all.map((c, d) => (counted(d) ? c : undefined));
      const total = counts.every((c) => c !== undefined)
        ? all.reduce((sum, c) => sum + c, 0n)
        : undefined;
      ready.push({ n, counts, total });
      this.next++;
    }
    return ready;
  }
}
