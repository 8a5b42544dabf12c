// Who may use the kernel pool's slots now: any number of ordinary units side by side, or one
// whole-machine unit alone. First come, first served, so a waiting whole-machine unit is not
// overtaken: the units that arrive after it wait, and the running ones drain.

interface Waiter {
  readonly alone: boolean;
  readonly grant: () => void;
  readonly deny: (err: Error) => void;
}

export class SlotGate {
  private beside = 0;
  private alone = false;
  private readonly queue: Waiter[] = [];

  /** Resolves, in arrival order, with the function that gives the hold back. */
  enter(alone: boolean): Promise<() => void> {
    return new Promise<() => void>((resolve, reject) => {
      const release = (): void => {
        if (alone) this.alone = false;
        else this.beside--;
        this.pump();
      };
      this.queue.push({ alone, grant: () => resolve(once(release)), deny: reject });
      this.pump();
    });
  }

  /** Rejects every unit still waiting (a hand-back: they never started). */
  denyWaiting(err: Error): void {
    for (const waiter of this.queue.splice(0)) waiter.deny(err);
  }

  private pump(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head || this.alone || (head.alone && this.beside > 0)) return;
      this.queue.shift();
      if (head.alone) this.alone = true;
      else this.beside++;
      head.grant();
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
