// One thread of a parallel window-transfer count (started by window-transfer-parallel.ts). Every
// thread of the team runs this same program on its own contiguous share of each pass (trie
// nodes or windows) and the team meets at a barrier (Atomics over shared memory) between
// passes. Thread 0 allocates each shared array and hands it to the others through ports.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { fullMask, popcount } from './board.js';
import { ResidueSystem } from './exact.js';
import {
  assertLevelIndices,
  assertTransferWindows,
  CHUNK,
  collectGarbage,
  conflictsAtDepth,
  copyVector,
  doubleStepper,
  expandNode,
  fillBases,
  focusWindows,
  followFocus,
  keepsPairedVector,
  LEVEL_BYTES_PER_NODE,
  nodeChildren,
  type NodeRange,
  nodeRangeOf,
  partNodes,
  residueStepper,
  reverseNodes,
  smallStepper,
  type Stepper,
  transferShape,
  type WindowTable,
} from './window-transfer.js';
import { SCRATCH_SLOTS, type TeamReply, type TeamThreadData } from './window-transfer-parallel.js';
import { fromSharedMessage, toSharedMessage } from './shared-views.js';

class Team {
  private readonly control: Int32Array;
  private readonly scratch: Float64Array;
  private gathers = 0;

  constructor(private readonly data: TeamThreadData) {
    this.control = new Int32Array(data.control);
    this.scratch = new Float64Array(data.scratch);
  }

  get index(): number {
    return this.data.index;
  }

  /** This thread's equal share [lo, hi) of 0 … count−1. */
  split(count: number): [number, number] {
    const { index, threads } = this.data;
    return [Math.floor((count * index) / threads), Math.floor((count * (index + 1)) / threads)];
  }

  /** Returns once every thread has called it (a generation-counting barrier). */
  barrier(): void {
    const generation = Atomics.load(this.control, 1);
    if (Atomics.add(this.control, 0, 1) === this.data.threads - 1) {
      Atomics.store(this.control, 0, 0);
      Atomics.add(this.control, 1, 1);
      Atomics.notify(this.control, 1);
    } else {
      while (Atomics.load(this.control, 1) === generation) {
        Atomics.wait(this.control, 1, generation);
      }
    }
  }

  /** Thread 0 makes the value (typed arrays over SharedArrayBuffers); every thread gets it. */
  share<T>(make: () => T): T {
    if (this.data.index === 0) {
      const value = make();
      const message = toSharedMessage(value);
      for (const port of this.data.ports) port.postMessage(message);
      this.barrier();
      return value;
    }
    this.barrier();
    const port = this.data.ports[0];
    const received = port && receiveMessageOnPort(port);
    if (!received) throw new Error('window-transfer team: thread 0 shared nothing');
    return fromSharedMessage(received.message) as T;
  }

  /**
   * Every thread puts `values` in; returns each thread's values, by thread. Two halves of the
   * scratch alternate: a thread writes half h again only after the barrier of the next gather,
   * which every thread reaches after it has read half h.
   */
  gather(values: readonly number[]): Float64Array[] {
    const { threads, index } = this.data;
    const half = (this.gathers++ % 2) * threads * SCRATCH_SLOTS;
    this.scratch.set(values, half + index * SCRATCH_SLOTS);
    this.barrier();
    return Array.from({ length: threads }, (_, k) =>
      this.scratch.slice(half + k * SCRATCH_SLOTS, half + k * SCRATCH_SLOTS + values.length),
    );
  }

  progress(fraction: number): void {
    if (this.data.index === 0) parentPort?.postMessage({ type: 'progress', fraction });
  }
}

const int32 = (length: number): Int32Array =>
  new Int32Array(new SharedArrayBuffer(4 * Math.max(1, length)));
const uint32 = (length: number): Uint32Array =>
  new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, length)));

/** The arrays of the level being generated (at the last, level D−1, only what the table keeps). */
type NextLevel =
  | { readonly last: true; readonly mask: Int32Array; readonly reversed: Uint32Array }
  | {
      readonly last: false;
      readonly nodes: Int32Array;
      readonly reversed: Uint32Array;
      readonly suffix: Uint32Array;
      readonly oldest: Uint8Array;
    };

/**
 * buildWindowTable, one level at a time across the team: each thread expands a contiguous
 * share of a level's nodes into the next level (their children are a contiguous share too)
 * and reverses its own new nodes; the first-child indices are a prefix sum over the shares.
 * Unlike the single-threaded build, `parents` is pulled after the last level rather than
 * pushed while generating it (window (o1, s) exists iff o1 is a child of s's reversal), so no
 * two threads ever write one cell. Returns the table and this thread's share of its nodes.
 */
function buildTable(
  team: Team,
  n: number,
  depth: number,
  focus: readonly number[],
  onLevel: (level: number) => void,
): { table: WindowTable; range: NodeRange } {
  const full = fullMask(n);
  const rows = Math.ceil(n / 2);
  const below = (c: number): number => (1 << c) - 1;
  // The root is the same in every thread and is never written: each keeps its own copy.
  let count = 1;
  let suffixRank: Uint32Array = new Uint32Array(1);
  let oldestCol: Uint8Array = new Uint8Array(1);
  let reversed: Uint32Array = new Uint32Array(1);
  let nodes: Int32Array = Int32Array.of(0, full, 0, 0);
  let prevNodes: Int32Array = new Int32Array(2);
  let focusLo = 0;
  let focusHi = 1;
  let childMask: Int32Array | undefined;
  const chunkSuffix = new Uint32Array(CHUNK + 32);
  const chunkOldest = new Uint8Array(CHUNK + 32);
  const kids = nodeChildren();

  for (let level = 0; level + 1 < depth; level++) {
    const total = level === 0 ? fillBases(nodes, count) : fillBasesTogether(team, nodes, count);
    [focusLo, focusHi] = followFocus(focus, level, nodes, focusLo, focusHi);
    const last = level + 2 === depth;
    const attack = conflictsAtDepth(n, level + 1);
    const next = team.share<NextLevel>(() =>
      last
        ? { last: true, mask: int32(total), reversed: uint32(total) }
        : {
            last: false,
            nodes: int32(2 * total + 2),
            reversed: uint32(total),
            suffix: uint32(total),
            oldest: new Uint8Array(new SharedArrayBuffer(Math.max(1, total))),
          },
    );
    const [lo, hi] = team.split(count);
    const t0 = nodes[2 * lo]!;
    let chunkStart = t0;
    for (let i = lo, t = t0; i < hi; i++) {
      // The same expansion as buildWindowTable's, for this thread's nodes only.
      // prettier-ignore
      const k = expandNode(level, i, nodes, suffixRank, oldestCol, prevNodes, attack, kids);
      for (let j = 0; j < k; j++, t++) {
        if (next.last) {
          next.mask[t] = kids.free[j]!;
          chunkSuffix[t - chunkStart] = kids.suffix[j]!;
          chunkOldest[t - chunkStart] = kids.oldest[j]!;
        } else {
          next.nodes[2 * t + 1] = kids.free[j]!;
          next.suffix[t] = kids.suffix[j]!;
          next.oldest[t] = kids.oldest[j]!;
        }
      }
      if (next.last && (t - chunkStart >= CHUNK || i + 1 === hi)) {
        const length = t - chunkStart;
        reverseNodes(nodes, reversed, chunkSuffix, chunkOldest, length, next.reversed, chunkStart);
        chunkStart = t;
      }
    }
    if (!next.last) {
      const t1 = nodes[2 * hi]!;
      const suffix = next.suffix.subarray(t0, t1);
      reverseNodes(
        nodes,
        reversed,
        suffix,
        next.oldest.subarray(t0, t1),
        t1 - t0,
        next.reversed,
        t0,
      );
    }
    team.barrier();
    onLevel(level + 1);
    if (next.last) {
      childMask = next.mask;
    } else {
      suffixRank = next.suffix;
      oldestCol = next.oldest;
      prevNodes = nodes;
      nodes = next.nodes;
    }
    reversed = next.reversed;
    const dropped = count;
    count = total;
    // Every thread drops the old levels before the next level's barrier lets thread 0 allocate
    // (all of them or none: the level sizes are shared).
    collectGarbage(dropped * LEVEL_BYTES_PER_NODE);
  }
  // D = 1: the root is the only node of level D−1.
  const mask = childMask ?? Int32Array.of(full);
  // The upper levels are garbage from here on: drop them before the table's last arrays come.
  nodes = prevNodes = new Int32Array(0);
  suffixRank = new Uint32Array(0);
  oldestCol = new Uint8Array(0);
  collectGarbage(count * LEVEL_BYTES_PER_NODE);
  team.barrier();

  // Pass 1 over this thread's share of level D−1: parents, and the sums the offsets need.
  const { parents, base } = team.share(() => ({
    parents: new Uint16Array(new SharedArrayBuffer(2 * count)),
    base: uint32(count + 1),
  }));
  const [lo, hi] = team.split(count);
  const keptRows = below(rows);
  const perRow = new Array<number>(rows).fill(0);
  let children = 0;
  for (let s = lo; s < hi; s++) {
    const p = mask[reversed[s]!]! & keptRows;
    parents[s] = p;
    for (let x = p; x !== 0; x &= x - 1) perRow[31 - Math.clz32(x & -x)]!++;
    children += popcount(mask[s]!);
  }
  const sums = team.gather([children, ...perRow]);
  let first = 0;
  let windowCount = 0;
  const rowCount = new Float64Array(rows);
  const next = new Float64Array(rows);
  sums.forEach((values, k) => {
    windowCount += values[0]!;
    if (k < team.index) first += values[0]!;
    for (let o = 0; o < rows; o++) {
      rowCount[o]! += values[1 + o]!;
      if (k < team.index) next[o]! += values[1 + o]!;
    }
  });
  // Every thread sums the same count, so all refuse here, before the next barrier.
  assertTransferWindows(n, depth, windowCount);
  const rowStart = new Float64Array(rows);
  for (let o = 1; o < rows; o++) rowStart[o] = rowStart[o - 1]! + rowCount[o - 1]!;
  for (let o = 0; o < rows; o++) next[o]! += rowStart[o]!;
  for (let s = lo, at = first; s < hi; s++) {
    base[s] = at;
    at += popcount(mask[s]!);
  }
  if (hi === count) base[count] = windowCount;
  team.barrier();

  // The focus, as buildWindowTable locates it (every thread alike).
  [focusLo, focusHi] = focusWindows(
    focus,
    depth,
    mask,
    base[focusLo]!,
    base[focusHi]!,
    focusLo,
    focusHi,
  );
  // Pass 2: each node's reversal's first child, in place (a thread rewrites only its share).
  const revFirst = reversed;
  for (let s = lo; s < hi; s++) revFirst[s] = base[reversed[s]!]!;
  team.barrier();
  const table: WindowTable = {
    n,
    depth,
    windowCount,
    kept: Math.ceil(windowCount / 2),
    childMask: mask,
    parents,
    rowStart,
    revFirst,
    rangeStart: focusLo,
    rangeEnd: focusHi,
  };
  return { table, range: { start: lo, end: hi, first, next } };
}

/** fillBases across the team: a prefix sum over the threads' shares; the level's total. */
function fillBasesTogether(team: Team, nodes: Int32Array, count: number): number {
  const [lo, hi] = team.split(count);
  let own = 0;
  for (let i = lo; i < hi; i++) own += popcount(nodes[2 * i + 1]!);
  const sums = team.gather([own]);
  let total = 0;
  let at = 0;
  sums.forEach((values, k) => {
    total += values[0]!;
    if (k < team.index) at += values[0]!;
  });
  for (let i = lo; i < hi; i++) {
    nodes[2 * i] = at;
    at += popcount(nodes[2 * i + 1]!);
  }
  assertLevelIndices(total);
  if (hi === count) nodes[2 * count] = total;
  team.barrier();
  return total;
}

/** The team's share of the count: countByWindowTransfer's steps, split by node ranges. */
function countTogether(team: Team, data: TeamThreadData): TeamReply {
  const { n, depth, prefixLength } = data;
  const shape = transferShape(n, depth, prefixLength, data.meetShift);
  const units = shape.steps + 2;
  const { table, range } = buildTable(team, n, depth, data.focus, (level) =>
    team.progress((level / depth) * (1 / units)),
  );
  const conflictOf = conflictsAtDepth(n, depth);
  switch (shape.counts) {
    case 'uint16':
      return stepTogether(
        team,
        data,
        table,
        range,
        smallStepper(table, conflictOf),
        (cells) => new Uint16Array(new SharedArrayBuffer(2 * cells)),
      );
    case 'float64':
      return stepTogether(
        team,
        data,
        table,
        range,
        doubleStepper(table, conflictOf),
        (cells) => new Float64Array(new SharedArrayBuffer(8 * cells)),
      );
    case 'residues': {
      const residues = new ResidueSystem(n);
      const stepper = residueStepper(table, conflictOf, residues);
      return stepTogether(
        team,
        data,
        table,
        range,
        stepper,
        (cells) => new Uint32Array(new SharedArrayBuffer(4 * residues.size * cells)),
      );
    }
  }
}

function stepTogether<V extends Uint16Array | Float64Array | Uint32Array>(
  team: Team,
  data: TeamThreadData,
  table: WindowTable,
  range: NodeRange,
  step: Stepper<V>,
  allocate: (windows: number) => V,
): TeamReply {
  const shape = transferShape(data.n, data.depth, data.prefixLength, data.meetShift);
  const units = shape.steps + 2;
  // A shifted meeting row pairs the last vector with one from further back: kept aside.
  const keeps = keepsPairedVector(shape);
  // The build's first-child index (Int32 pairs per level D−1 node) is garbage: freed in every
  // thread before the vectors come.
  collectGarbage(8 * table.childMask.length);
  team.barrier();
  const [first, second, kept] = team.share(
    () =>
      [
        allocate(table.kept),
        allocate(table.kept),
        keeps ? allocate(table.kept) : undefined,
      ] as const,
  );
  let current = first;
  let next = second;
  // The ones, split by cells (every cell of a residue tuple is 1 too).
  const [lo, hi] = team.split(current.length);
  current.fill(1, lo, hi);
  if (kept && shape.pairedSteps === 0) copyVector(current, kept, lo, hi);
  team.barrier();
  team.progress(1 / units);
  for (let done = 0; done < shape.steps; done++) {
    step.run(current, next, range);
    team.barrier();
    [current, next] = [next, current];
    if (kept && done + 1 === shape.pairedSteps) {
      copyVector(current, kept, lo, hi);
      team.barrier();
    }
    team.progress((done + 2) / units);
  }
  if (!shape.meetsInMiddle) {
    const [from, to] = team.split(table.rangeEnd - table.rangeStart);
    const partial = step.rangeSum(current, table.rangeStart + from, table.rangeStart + to);
    return { type: 'result', partial: partial.toString(), middle: '0' };
  }
  const a = kept ?? (shape.pairedSteps === shape.steps ? current : next);
  // A part pairs only its run of nodes, which the team splits in turn.
  let paired = range;
  if (data.part) {
    const [start, end] = partNodes(table.childMask.length, data.part);
    const [lo, hi] = team.split(end - start);
    paired = nodeRangeOf(table, start + lo, start + hi);
  }
  const partial = step.dot(a, current, paired);
  const middle =
    team.index === 0 && (data.part?.index ?? 0) === 0 && table.windowCount % 2 === 1
      ? step.valueAt(a, table.kept - 1) * step.valueAt(current, table.kept - 1)
      : 0n;
  return { type: 'result', partial: partial.toString(), middle: middle.toString() };
}

const port = parentPort;
if (port) {
  const data = workerData as TeamThreadData;
  const reply = countTogether(new Team(data), data);
  port.postMessage(reply);
  for (const p of data.ports) p.close();
}
