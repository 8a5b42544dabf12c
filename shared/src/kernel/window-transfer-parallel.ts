// The window transfer on a team of worker threads over shared memory, for one big unit that
// should use a whole machine. It counts exactly what countByWindowTransfer (the reference)
// counts, with the same arithmetic: each pass only splits the trie nodes into contiguous shares.
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { InvalidInputError } from './errors.js';
import { countWithoutSearch } from './board.js';
import { ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';
import { assertTransferPart, type TransferPart, transferShape } from './window-transfer.js';

export interface ParallelTransferOptions {
  /** Worker threads that share every pass; the calling thread only waits for them. */
  readonly threads: number;
  readonly onProgress?: ProgressCallback;
  /** Aborting terminates every thread of the team; the promise rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Count only this part of a whole (n, D) (see TransferPart). */
  readonly part?: TransferPart;
  /** Meet this many rows past the middle (see transferShape); default 0. */
  readonly meetShift?: number;
}

export const MAX_TEAM_THREADS = 256;

/** What each team thread is started with (window-transfer-thread.ts). */
export interface TeamThreadData {
  readonly n: number;
  readonly depth: number;
  /** At most D columns; empty for a whole (n, D). */
  readonly focus: readonly number[];
  readonly prefixLength: number;
  readonly part?: TransferPart;
  readonly meetShift: number;
  readonly threads: number;
  readonly index: number;
  /** Int32 [arrived, generation]: the barrier. */
  readonly control: SharedArrayBuffer;
  /** Float64, 2 × threads × SCRATCH_SLOTS: numbers the threads exchange (see gather). */
  readonly scratch: SharedArrayBuffer;
  /** Thread 0: one port to each other thread; any other thread: its port from thread 0. */
  readonly ports: readonly MessagePort[];
}

export type TeamReply =
  | { readonly type: 'progress'; readonly fraction: number }
  | {
      readonly type: 'result';
      /** This thread's share of the sum (with residues: modulo the primes' product). */
      readonly partial: string;
      /** Thread 0 of the first part only: the self-mirrored window's term, counted once. */
      readonly middle: string;
    };

/** Numbers one thread puts into one gather: 1 + 2 per kept row (at most 16 at n ≤ 32). */
export const SCRATCH_SLOTS = 40;

const THREAD_SCRIPT = new URL('./window-transfer-thread.js', import.meta.url);

/**
 * countByWindowTransfer(n, D, prefix) on `threads` worker threads (started here and always
 * terminated before the promise settles). The table, the count vectors and each pass are
 * shared: one machine's cores on one unit, with the same peak memory as one thread.
 */
export async function countByWindowTransferParallel(
  n: number,
  depth: number,
  prefix: readonly number[],
  options: ParallelTransferOptions,
): Promise<bigint> {
  const { threads, onProgress, signal, part } = options;
  const meetShift = options.meetShift ?? 0;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_TEAM_THREADS) {
    throw new InvalidInputError('threads', threads, `an integer from 1 to ${MAX_TEAM_THREADS}`);
  }
  if (part) assertTransferPart(part, prefix.length);
  const trivial = countWithoutSearch(n, depth, prefix);
  signal?.throwIfAborted();
  // A count with no search is whole: its first part holds it.
  if (trivial !== undefined) return part && part.index > 0 ? 0n : trivial;
  const shape = transferShape(n, depth, prefix.length, meetShift);
  // A prefix longer than a window only matters through its last D columns.
  const focus = prefix.length > depth ? prefix.slice(prefix.length - depth) : [...prefix];
  const control = new SharedArrayBuffer(8);
  const scratch = new SharedArrayBuffer(2 * threads * SCRATCH_SLOTS * 8);
  const channels = Array.from({ length: threads - 1 }, () => new MessageChannel());
  const team = Array.from({ length: threads }, (_, index) => {
    const ports: MessagePort[] =
      index === 0 ? channels.map((c) => c.port1) : [channels[index - 1]!.port2];
    const data: TeamThreadData = {
      n,
      depth,
      focus,
      prefixLength: prefix.length,
      ...(part ? { part } : {}),
      meetShift,
      threads,
      index,
      control,
      scratch,
      ports,
    };
    return new Worker(THREAD_SCRIPT, { workerData: data, transferList: ports });
  });

  const partials: bigint[] = [];
  const replied = new Array<boolean>(threads).fill(false);
  let middle = 0n;
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onAbort = () => {
        const reason: unknown = signal?.reason;
        reject(reason instanceof Error ? reason : new Error(`aborted: ${String(reason)}`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      team.forEach((thread, index) => {
        thread.on('message', (reply: TeamReply) => {
          if (reply.type === 'progress') return onProgress?.(reply.fraction);
          replied[index] = true;
          partials.push(BigInt(reply.partial));
          middle += BigInt(reply.middle);
          if (partials.length === threads) resolve();
        });
        // A thread that fails leaves the others waiting at a barrier: the finally stops them.
        thread.on('error', (err) => reject(err));
        thread.on('exit', (code) => {
          if (!replied[index]) {
            reject(new Error(`window-transfer thread ${index} exited with code ${code}`));
          }
        });
      });
    });
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await Promise.all(team.map((thread) => thread.terminate()));
  }
  let sum = partials.reduce((a, b) => a + b, 0n);
  if (shape.counts === 'residues') {
    // Each share is a residue sum reduced modulo the primes' product; the whole is below it.
    const modulus = [...new ResidueSystem(n).primes].reduce((m, p) => m * BigInt(p), 1n);
    sum %= modulus;
  }
  const total = shape.meetsInMiddle ? 2n * sum - middle : sum;
  onProgress?.(1);
  return total;
}
