// Exact counting without BigInt in hot loops: counts are kept modulo a few primes below 2^27
// (Chinese remainder theorem), enough primes that their product exceeds every value that can
// occur, and turned into one BigInt only when a result leaves the kernel.

/**
 * Each prime is below 2^27, so a sum of up to 32 residues stays below 2^32: hot loops add
 * into Uint32Array cells without reducing and take one `%` per cell per step.
 */
const PRIME_LIMIT = 2 ** 27;
export const MAX_ADDENDS = 32;

/**
 * Found on first use, not at import: every process and thread that loads the kernel imports
 * this, and most (a client planning a sweep) never count (~4 ms of trial division each).
 */
let primes: readonly number[] | undefined;
const PRIMES = (): readonly number[] => (primes ??= findPrimesBelow(PRIME_LIMIT, 8));

function findPrimesBelow(limit: number, count: number): number[] {
  const found: number[] = [];
  for (let candidate = limit - 1; found.length < count; candidate -= 2) {
    let prime = true;
    for (let d = 3; d * d <= candidate; d += 2) {
      if (candidate % d === 0) {
        prime = false;
        break;
      }
    }
    if (prime) found.push(candidate);
  }
  return found;
}

/** A residue number system wide enough for every count on an n×n board (all are ≤ n^n). */
export class ResidueSystem {
  readonly primes: Uint32Array;
  private readonly modulus: bigint;
  private readonly weights: bigint[];

  constructor(readonly n: number) {
    const bound = BigInt(n) ** BigInt(n);
    const chosen: number[] = [];
    let product = 1n;
    for (const p of PRIMES()) {
      if (product > bound) break;
      chosen.push(p);
      product *= BigInt(p);
    }
    this.primes = Uint32Array.from(chosen);
    this.modulus = product;
    // CRT weights: w_i ≡ 1 (mod p_i), ≡ 0 (mod p_j) for j ≠ i.
    this.weights = chosen.map((p) => {
      const rest = product / BigInt(p);
      return rest * modInverse(rest % BigInt(p), BigInt(p));
    });
  }

  get size(): number {
    return this.primes.length;
  }

  /** The unique value in [0, product of primes) with the given residues. */
  combine(residues: ArrayLike<number>): bigint {
    let value = 0n;
    for (let i = 0; i < this.primes.length; i++) {
      value += BigInt(residues[i] ?? 0) * (this.weights[i] ?? 0n);
    }
    return value % this.modulus;
  }

  /** Sums `length` interleaved residue tuples (stride = size) into one exact value. */
  sum(cells: Uint32Array, length: number): bigint {
    const size = this.primes.length;
    const totals = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      const p = this.primes[i] ?? 1;
      let acc = 0;
      for (let w = 0; w < length; w++) {
        acc += cells[w * size + i] ?? 0;
        // A Float64 stays exact below 2^53; fold long before that.
        if (acc >= 2 ** 52) acc %= p;
      }
      totals[i] = acc % p;
    }
    return this.combine(totals);
  }
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}
