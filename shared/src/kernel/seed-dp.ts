// The source document's algorithm, kept as the reference: a frontier of (state, multiplicity)
// where the state is the last min(r, D) columns packed a few bits each; every row, emit all
// legal successors, sort them by encoded state, and merge equal states by adding counts.
import { countWithoutSearch, fullMask } from './board.js';
import { ResidueSystem } from './exact.js';
import type { ProgressCallback } from './progress.js';

interface Frontier {
  size: number;
  /** `words` Uint32 per state; digit 0 (the newest column) in the lowest bits of word 0. */
  keys: Uint32Array;
  /** `residues` counts per state, modulo the residue system's primes. */
  counts: Uint32Array;
}

/** Number of legal completions of `prefix` on an (n, D) board, by sorted-merge DP. */
export function countBySeedDp(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress?: ProgressCallback,
): bigint {
  return countWithoutSearch(n, depth, prefix) ?? mergeFrontiers(n, depth, prefix, onProgress);
}

function mergeFrontiers(
  n: number,
  depth: number,
  prefix: readonly number[],
  onProgress: ProgressCallback | undefined,
): bigint {
  const bits = n <= 16 ? 4 : 5; // 4 bits per remembered row, as in the source, while n ≤ 16
  const perWord = Math.floor(32 / bits);
  const words = Math.ceil(depth / perWord);
  const residues = new ResidueSystem(n);
  const P = residues.size;
  const digitMask = (1 << bits) - 1;
  const topDigits = depth - perWord * (words - 1);
  const wordMask = (w: number): number =>
    w === words - 1 && topDigits < perWord ? (1 << (bits * topDigits)) - 1 : -1;
  const full = fullMask(n);

  // The frontier after the prefix: one state with multiplicity 1.
  let frontier: Frontier = {
    size: 1,
    keys: new Uint32Array(words),
    counts: new Uint32Array(P).fill(1),
  };
  for (const column of prefix) shiftIn(frontier.keys, 0, frontier.keys, 0, column);

  function digit(keys: Uint32Array, at: number, i: number): number {
    const word = keys[at + Math.floor(i / perWord)] ?? 0;
    return (word >>> (bits * (i % perWord))) & digitMask;
  }
  // Writes the parent's state with `column` as the newest digit and the oldest beyond D dropped.
  function shiftIn(
    from: Uint32Array,
    at: number,
    to: Uint32Array,
    out: number,
    column: number,
  ): void {
    for (let w = words - 1; w >= 0; w--) {
      const carry = w === 0 ? column : (from[at + w - 1] ?? 0) >>> (bits * (perWord - 1));
      to[out + w] = (((from[at + w] ?? 0) << bits) | carry) & wordMask(w);
    }
  }

  for (let row = prefix.length; row < n; row++) {
    const remembered = Math.min(row, depth);
    // Generate: rebuild each state's blocked set from its remembered columns.
    let generated = 0;
    let keys = new Uint32Array(Math.max(1, frontier.size * 4) * words);
    let counts = new Uint32Array(Math.max(1, frontier.size * 4) * P);
    for (let s = 0; s < frontier.size; s++) {
      let blocked = 0;
      for (let d = 1; d <= remembered; d++) {
        const a = digit(frontier.keys, s * words, d - 1);
        blocked |= 1 << a;
        if (a + d < n) blocked |= 1 << (a + d);
        if (a - d >= 0) blocked |= 1 << (a - d);
      }
      let free = ~blocked & full;
      while (free !== 0) {
        const bit = free & -free;
        free ^= bit;
        if ((generated + 1) * words > keys.length) {
          keys = grow(keys);
          counts = grow(counts);
        }
        shiftIn(frontier.keys, s * words, keys, generated * words, 31 - Math.clz32(bit));
        counts.set(frontier.counts.subarray(s * P, s * P + P), generated * P);
        generated++;
      }
    }
    // Sort by encoded state, then merge equal neighbours.
    const order = radixOrder(keys, words, generated);
    frontier = merge(keys, counts, order, generated, words, residues);
    onProgress?.((row + 1 - prefix.length) / (n - prefix.length));
  }
  return residues.sum(frontier.counts, frontier.size);
}

function grow(array: Uint32Array): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Least-significant-digit radix sort on 16-bit digits; returns the sorted order of indices. */
function radixOrder(keys: Uint32Array, words: number, size: number): Uint32Array {
  let order = new Uint32Array(size);
  let spare = new Uint32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  const buckets = new Uint32Array(1 << 16);
  for (let pass = 0; pass < words * 2; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    buckets.fill(0);
    for (let i = 0; i < size; i++) {
      const k = ((keys[i * words + word] ?? 0) >>> shift) & 0xffff;
      buckets[k] = (buckets[k] ?? 0) + 1;
    }
    if (buckets.includes(size)) continue; // every key shares this digit: nothing to reorder
    let sum = 0;
    for (let b = 0; b < buckets.length; b++) {
      const c = buckets[b] ?? 0;
      buckets[b] = sum;
      sum += c;
    }
    for (let i = 0; i < size; i++) {
      const index = order[i] ?? 0;
      const k = ((keys[index * words + word] ?? 0) >>> shift) & 0xffff;
      spare[buckets[k] ?? 0] = index;
      buckets[k] = (buckets[k] ?? 0) + 1;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

function merge(
  keys: Uint32Array,
  counts: Uint32Array,
  order: Uint32Array,
  size: number,
  words: number,
  residues: ResidueSystem,
): Frontier {
  const P = residues.size;
  const outKeys = new Uint32Array(size * words);
  const outCounts = new Uint32Array(size * P);
  let out = -1;
  for (let i = 0; i < size; i++) {
    const index = order[i] ?? 0;
    let same = out >= 0;
    for (let w = 0; same && w < words; w++) {
      same = keys[index * words + w] === outKeys[out * words + w];
    }
    if (!same) {
      out++;
      for (let w = 0; w < words; w++) outKeys[out * words + w] = keys[index * words + w] ?? 0;
    }
    // At most n ≤ 32 successors share a state, so these sums stay below 2^32.
    for (let r = 0; r < P; r++) {
      outCounts[out * P + r] = (outCounts[out * P + r] ?? 0) + (counts[index * P + r] ?? 0);
    }
  }
  const merged = out + 1;
  for (let s = 0; s < merged; s++) {
    for (let r = 0; r < P; r++) {
      outCounts[s * P + r] = (outCounts[s * P + r] ?? 0) % (residues.primes[r] ?? 1);
    }
  }
  return {
    size: merged,
    keys: outKeys.slice(0, merged * words),
    counts: outCounts.slice(0, merged * P),
  };
}
