// Who may use the kernel pool's slots now: up to `capacity` ordinary units side by side within
// a memory budget, or one whole-machine unit alone. First come, first served, so a waiting
// whole-machine unit is not overtaken: the units that arrive after it wait, and the running
// ones drain. Only an ordinary unit too big for the memory left lets a smaller one behind it
// go first (it would otherwise hold an idle slot for nothing).

interface Waiter {
  readonly alone: boolean;
  readonly bytes: number;
  readonly grant: () => void;
  readonly deny: (err: Error) => void;
}

export class SlotGate {
  private beside = 0;
  private besideBytes = 0;
  private alone = false;
  private readonly queue: Waiter[] = [];

  /**
   * @param capacity ordinary units at once (the pool's slots)
   * @param memoryBudget largest sum of estimated bytes of the ordinary units at once; a unit
   *   larger than the whole budget still runs, with nothing beside it
   */
  constructor(
    private readonly capacity = Infinity,
    private readonly memoryBudget = Infinity,
  ) {}

  /** Resolves, in arrival order, with the function that gives the hold back. */
  enter(alone: boolean, bytes = 0): Promise<() => void> {
    return new Promise<() => void>((resolve, reject) => {
      const release = (): void => {
        if (alone) this.alone = false;
        else {
          this.beside--;
          this.besideBytes -= bytes;
        }
        this.pump();
      };
      this.queue.push({ alone, bytes, grant: () => resolve(once(release)), deny: reject });
      this.pump();
    });
  }

  /** Rejects every unit still waiting (a hand-back: they never started). */
  denyWaiting(err: Error): void {
    for (const waiter of this.queue.splice(0)) waiter.deny(err);
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length && !this.alone;) {
      const waiter = this.queue[i] as Waiter;
      if (waiter.alone) {
        if (this.beside > 0) return;
        this.queue.splice(i, 1);
        this.alone = true;
        waiter.grant();
        return;
      }
      if (this.beside >= this.capacity) return;
      const fits = this.beside === 0 || this.besideBytes + waiter.bytes <= this.memoryBudget;
      if (!fits) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.beside++;
      this.besideBytes += waiter.bytes;
      waiter.grant();
    }
  }
}

function once(f: () => void): () => void {
  let called = false;
  return () => {
    if (!called) {
      called = true;
      f();
    }
  };
}
