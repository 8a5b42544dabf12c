// The one pool of kernel threads, for the worker and for `wq compute`: a fixed set of slots that
// run units, one unit per thread at a time; a big window-transfer unit instead runs alone on a
// team of as many threads as the pool has slots. The main thread stays free (BullMQ renews job
// locks there; `wq compute` draws its progress bar there).
import { Worker } from 'node:worker_threads';
import { HandBackError, InvalidInputError, KernelError, WeakQueensError } from './errors.js';
import type { ThreadReply } from './kernel-thread.js';
import type { Algorithm } from './algorithms.js';
import { planUnits, type WorkUnit } from './plan.js';
import { SlotGate } from './slot-gate.js';
import { countByWindowTransferParallel } from './window-transfer-parallel.js';

interface Slot {
  /** Its place in the pool, 0 … size − 1: a replaced thread takes the lowest free one. */
  readonly index: number;
  readonly thread: Worker;
  busy: boolean;
  /** Rejects the running unit (hand-back or a dead thread). */
  abort?: (err: Error) => void;
}

/** A counted unit and the slot that counted it (the dashboard's timeline draws one lane per slot). */
export interface KernelRun {
  readonly value: bigint;
  /** The slot's index; a unit on every slot (a team) is shown on slot 0. */
  readonly slot: number;
  /**
   * When its count began (this host's clock, ms) and how long it ran, without the wait for a
   * slot: two units of one slot never overlap (the dashboard draws them in one lane).
   */
  readonly startedAt: number;
  readonly seconds: number;
}

/** What a slot, a team or this thread hands back; `count` adds the timing. */
type Counted = Pick<KernelRun, 'value' | 'slot'>;

export interface KernelPoolOptions {
  /** The thread script of a slot (tests point it elsewhere). */
  readonly script?: URL;
  /**
   * A window-transfer unit estimated at this many single-core seconds or more runs on every
   * slot at once (default 10: long enough that letting the other slots drain first pays).
   */
  readonly wholeMachineSeconds?: number;
  /** … and so does one estimated at this many bytes or more, which is best run alone. */
  readonly wholeMachineBytes?: number;
  /**
   * Largest sum of estimated peak bytes of the ordinary units running at once (default: no
   * limit; the worker's planner caps each unit instead). `wq compute` uses its worker memory,
   * so big transfer tables side by side never take more than that.
   */
  readonly memoryBudget?: number;
}

export const WHOLE_MACHINE_SECONDS = 10;
export const WHOLE_MACHINE_BYTES = 512 * 1024 ** 2;

/** How often the warm-up counts its small boards (once was not enough for V8: measured). */
const WARM_ROUNDS = 3;

type RunOptions = { readonly boundSeconds?: number };

export class KernelPool {
  private readonly slots = new Set<Slot>();
  /** Aborts each whole-machine unit running now (a hand-back or its work bound). */
  private readonly teams = new Map<AbortController, Promise<unknown>>();
  private readonly gate: SlotGate;
  private readonly script: URL;
  private closed = false;
  /** Whether a real unit has been asked for: the warm-up's rounds stop then. */
  private requested = false;

  constructor(
    readonly size: number,
    private readonly options: KernelPoolOptions = {},
  ) {
    if (!Number.isInteger(size) || size < 1) {
      throw new InvalidInputError('threads', size, 'an integer ≥ 1');
    }
    // Resolved next to this file, so it finds dist/kernel/kernel-thread.js once built.
    this.script = options.script ?? new URL('./kernel-thread.js', import.meta.url);
    this.gate = new SlotGate(size, options.memoryBudget);
  }

  /**
   * Counts one unit on a free thread (waiting for one when all `size` are busy, or when the
   * memory budget is spent), or a big window-transfer unit on all `size` threads once the
   * others are free (see usesWholeMachine); units that arrive meanwhile wait for it. With `boundSeconds`, a unit
   * still running after that long is stopped (its threads are terminated) and rejected with a
   * non-retryable KernelError that says so.
   */
  async run(
    unit: WorkUnit,
    onProgress: (fraction: number) => void,
    options: RunOptions = {},
  ): Promise<KernelRun> {
    this.requested = true;
    return this.count(unit, onProgress, options);
  }

  /** `run`, for the pool's own warm-up as well. */
  private async count(
    unit: WorkUnit,
    onProgress: (fraction: number) => void,
    options: RunOptions = {},
  ): Promise<KernelRun> {
    if (this.closed) throw new HandBackError();
    const alone = this.usesWholeMachine(unit);
    const release = await this.gate.enter(alone, unit.estimate.bytes);
    try {
      if (this.closed) throw new HandBackError();
      const startedAt = Date.now();
      const started = performance.now();
      let ran: Counted;
      if (alone) ran = { value: await this.runOnTeam(unit, onProgress, options), slot: 0 };
      else ran = await this.runOnSlot(unit, onProgress, options);
      return { ...ran, startedAt, seconds: (performance.now() - started) / 1000 };
    } finally {
      release();
    }
  }

  /**
   * Starts every slot's thread now and has it count a tiny unit of each algorithm, so the first
   * real units do not wait for a thread to load the kernel (~0.25 s a thread: most of a small
   * sweep). Then, until the first real unit is asked for, each thread counts four small boards
   * three times over: V8 optimises a kernel's loops only after they have run a while, in each
   * thread on its own, and a small sweep is over before that happens on its own (what the
   * warm-up buys: docs/costs.md). A unit asked for meanwhile waits for at most one of these few
   * milliseconds; a pool closed meanwhile ends it quietly.
   */
  async warm(): Promise<void> {
    const units = (n: number, depth: number, algorithm: Algorithm): WorkUnit[] =>
      planUnits(n, depth, { algorithm, targetSeconds: Infinity });
    const tiny = [...units(8, 4, 'dfs'), ...units(8, 4, 'window-transfer')];
    const rounds = [...units(11, 5, 'dfs'), ...units(12, 5, 'window-transfer')];
    rounds.push(...units(12, 8, 'dfs'), ...units(11, 3, 'window-transfer'));
    try {
      await Promise.all(
        Array.from({ length: this.size }, async () => {
          for (const unit of tiny) await this.count(unit, () => undefined);
          for (let round = 0; round < WARM_ROUNDS; round++) {
            for (const unit of rounds) {
              if (this.requested) return;
              await this.count(unit, () => undefined);
            }
          }
        }),
      );
    } catch (err) {
      if (!(err instanceof HandBackError)) throw err;
    }
  }

  /** Whether a unit runs on every slot: a window transfer whose time or memory justifies it. */
  usesWholeMachine(unit: WorkUnit): boolean {
    const seconds = this.options.wholeMachineSeconds ?? WHOLE_MACHINE_SECONDS;
    const bytes = this.options.wholeMachineBytes ?? WHOLE_MACHINE_BYTES;
    return (
      this.size > 1 &&
      unit.algorithm === 'window-transfer' &&
      (unit.estimate.seconds >= seconds || unit.estimate.bytes >= bytes)
    );
  }

  private runOnTeam(
    unit: WorkUnit,
    onProgress: (fraction: number) => void,
    options: RunOptions,
  ): Promise<bigint> {
    const controller = new AbortController();
    const timer = boundTimer(options.boundSeconds, (message) =>
      controller.abort(new KernelError(message, false)),
    );
    const counted = countByWindowTransferParallel(unit.n, unit.depth, unit.prefix, {
      threads: this.size,
      ...(unit.part ? { part: unit.part } : {}),
      ...(unit.meetShift ? { meetShift: unit.meetShift } : {}),
      onProgress,
      signal: controller.signal,
    }).then(
      (count) => BigInt(unit.weight) * count,
      (err: unknown) => {
        if (err instanceof HandBackError || err instanceof KernelError) throw err;
        const message = err instanceof Error ? err.message : String(err);
        const retryable = !(err instanceof WeakQueensError) || err.retryable;
        throw new KernelError(message, retryable);
      },
    );
    const settled = counted.finally(() => {
      if (timer) clearTimeout(timer);
      this.teams.delete(controller);
    });
    this.teams.set(
      controller,
      settled.catch(() => undefined),
    );
    return settled;
  }

  private runOnSlot(
    unit: WorkUnit,
    onProgress: (fraction: number) => void,
    options: RunOptions,
  ): Promise<Counted> {
    const slot = this.acquire();
    return new Promise<Counted>((resolve, reject) => {
      const timer = boundTimer(options.boundSeconds, (message) => {
        this.slots.delete(slot);
        slot.abort?.(new KernelError(message, false));
        void slot.thread.terminate();
      });
      const finish = (): void => {
        if (timer) clearTimeout(timer);
        slot.thread.off('message', onMessage);
        slot.busy = false;
        slot.abort = undefined;
      };
      const onMessage = (reply: ThreadReply): void => {
        if (reply.type === 'progress') return onProgress(reply.fraction);
        finish();
        if (reply.type === 'done') resolve({ value: BigInt(reply.value), slot: slot.index });
        else reject(new KernelError(reply.message, reply.retryable));
      };
      slot.abort = (err) => {
        finish();
        reject(err);
      };
      slot.thread.on('message', onMessage);
      slot.thread.postMessage({ unit });
    });
  }

  /**
   * Stops every running unit now, and gives back the ones waiting for a whole-machine unit;
   * their promises reject with HandBackError. Resolves once their threads are gone.
   */
  async handBack(): Promise<void> {
    this.gate.denyWaiting(new HandBackError());
    const teams = [...this.teams];
    for (const [controller] of teams) controller.abort(new HandBackError());
    const busy = [...this.slots].filter((s) => s.busy);
    for (const slot of busy) {
      this.slots.delete(slot);
      slot.abort?.(new HandBackError());
    }
    await Promise.all([
      ...busy.map((s) => s.thread.terminate()),
      ...teams.map(([, settled]) => settled),
    ]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.handBack();
    const idle = [...this.slots];
    this.slots.clear();
    await Promise.all(idle.map((s) => s.thread.terminate()));
  }

  private acquire(): Slot {
    for (const slot of this.slots) {
      if (!slot.busy) {
        slot.busy = true;
        return slot;
      }
    }
    const taken = new Set([...this.slots].map((s) => s.index));
    let index = 0;
    while (taken.has(index)) index++;
    const slot: Slot = { index, thread: new Worker(this.script), busy: true };
    slot.thread.on('error', (err) => {
      this.slots.delete(slot);
      slot.abort?.(new KernelError(`kernel thread crashed: ${err.message}`, true));
    });
    slot.thread.on('exit', (code) => {
      if (this.slots.delete(slot)) {
        slot.abort?.(new KernelError(`kernel thread exited with code ${code}`, true));
      }
    });
    this.slots.add(slot);
    return slot;
  }
}

/**
 * The timer of a work bound, or none. setTimeout holds at most 2^31 − 1 ms (24.8 days); a
 * longer bound is no bound here.
 */
function boundTimer(
  bound: number | undefined,
  stop: (message: string) => void,
): ReturnType<typeof setTimeout> | undefined {
  if (bound === undefined || bound * 1000 > 2 ** 31 - 1) return undefined;
  return setTimeout(
    () =>
      stop(
        `the unit ran past its work bound of ${bound} s (its plan's estimate allows no more); ` +
          `stopped`,
      ),
    bound * 1000,
  );
}
