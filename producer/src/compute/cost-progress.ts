import type { WorkUnit } from '@weak-queens/shared/kernel';

/** Overall progress as the estimated-cost-weighted share of finished and running units. */
export class CostProgress {
  private readonly weights: number[];
  private readonly fractions: Float64Array;
  private doneWeight = 0;
  private readonly running = new Set<number>();

  constructor(
    units: readonly WorkUnit[],
    private readonly report: (fraction: number) => void,
  ) {
    const total = units.reduce((sum, u) => sum + u.estimate.seconds, 0);
    // Equal weights when the estimates say nothing (all zero).
    this.weights = units.map((u) => (total > 0 ? u.estimate.seconds / total : 1 / units.length));
    this.fractions = new Float64Array(units.length);
  }

  partial(index: number, fraction: number): void {
    this.fractions[index] = fraction;
    this.running.add(index);
    this.emit();
  }

  done(index: number): void {
    this.running.delete(index);
    this.doneWeight += this.weights[index] ?? 0;
    this.emit();
  }

  private emit(): void {
    let fraction = this.doneWeight;
    for (const index of this.running) {
      fraction += (this.weights[index] ?? 0) * (this.fractions[index] ?? 0);
    }
    this.report(fraction);
  }
}
