// The one list of reference values every test, bench and verified sweep checks against. Each
// value is taken from a publication or from the C++ baseline (never from this project's kernel),
// and says which, so a failure message can name where the expected value comes from.

/** OEIS A000170 for n = 1..27: the classic n-queens counts Q(n) = N(n, n − 1). */
export const CLASSIC_QUEENS: readonly string[] = [
  '1',
  '0',
  '0',
  '2',
  '10',
  '4',
  '40',
  '92',
  '352',
  '724',
  '2680',
  '14200',
  '73712',
  '365596',
  '2279184',
  '14772512',
  '95815104',
  '666090624',
  '4968057848',
  '39029188884',
  '314666222712',
  '2691008701644',
  '24233937684440',
  '227514171973736',
  '2207893435808352',
  '22317699616364044',
  '234907967154122528',
];

/**
 * OEIS A002562 for n = 1..23: n-queens solutions up to rotation and reflection (n ≤ 17 as in
 * PROBLEM.md; 18..23 from OEIS, a(19)–a(23) by Engelhardt from its formula over A000170,
 * A032522 and A033148).
 */
export const UNIQUE_QUEENS: readonly string[] = [
  '1',
  '0',
  '0',
  '1',
  '2',
  '1',
  '6',
  '12',
  '46',
  '92',
  '341',
  '1787',
  '9233',
  '45752',
  '285053',
  '1846955',
  '11977939',
  '83263591',
  '621012754',
  '4878666808',
  '39333324973',
  '336376244042',
  '3029242658210',
];

const PROBLEM = 'PROBLEM.md';
/**
 * The seed's algorithm as compiled C++ (shared/baseline/seed-dp.cpp), an implementation
 * independent of the TypeScript kernel the workers run. Printed by `seed-dp 1 13 1`,
 * `seed-dp 14 14 2` and `seed-dp 15 15 1` (S(15): 844 s, one thread) on the 2-core machine.
 */
const BASELINE = 'baseline/seed-dp.cpp';
/**
 * The peer program (shared/baseline/peer-tm-dfs.cpp: its own transfer matrix and DFS, C++,
 * written apart from this kernel). `peer-tm-dfs 16 17 2` printed S(16) and S(17) with every
 * N(n, D), equal D by D to this pipeline's verified counts (154 s and 738 s on 2 threads).
 */
const PEER = 'baseline/peer-tm-dfs.cpp';

/**
 * S(n) for n = 1..17, indexed by n − 1: S(4), S(5) and S(14) are published (PROBLEM.md), S(16)
 * and S(17) printed by the peer program, the others by the baseline.
 */
export const KNOWN_S: readonly string[] = [
  '1',
  '4',
  '29',
  '276',
  '3347',
  '49602',
  '873477',
  '17766990',
  '409828485',
  '10570235486',
  '301407798711',
  '9414912932950',
  '319705972380085',
  '11726115562784664',
  '461983502794813419',
  '19457615917571941524',
  '872422300284719124995',
];

/** The S(n) that PROBLEM.md publishes, and those the peer program printed. */
const PUBLISHED_S = new Set([4, 5, 14]);
const PEER_S = new Set([16, 17]);

/** N(4, D) for D = 0..3: PROBLEM.md's worked example. */
const WORKED_EXAMPLE_N4: readonly string[] = ['256', '16', '2', '2'];

export interface KnownValue {
  readonly value: string;
  /** Where the value comes from, for the failure message. */
  readonly source: string;
}

/** The reference S(n), when there is one. */
export function knownSum(n: number): KnownValue | undefined {
  const value = KNOWN_S[n - 1];
  if (value === undefined) return undefined;
  return { value, source: PUBLISHED_S.has(n) ? PROBLEM : PEER_S.has(n) ? PEER : BASELINE };
}

/** S(n) for each n, as the map tests compare results with; throws for an n without one. */
export function knownSums(ns: readonly number[]): Map<number, string> {
  return new Map(
    ns.map((n) => {
      const known = knownSum(n);
      if (!known)
        throw new RangeError(`n: no reference S(${n}); KNOWN_S holds n = 1..${KNOWN_S.length}`);
      return [n, known.value];
    }),
  );
}

/**
 * The N(n, D) known without the kernel, when there is one: n^n, OEIS A000170, N(n, 1)'s
 * recurrence, or PROBLEM.md's n = 4.
 */
export function knownValue(n: number, depth: number): KnownValue | undefined {
  if (depth === 0) return { value: (BigInt(n) ** BigInt(n)).toString(), source: 'n^n' };
  const classic = depth === n - 1 ? CLASSIC_QUEENS[n - 1] : undefined;
  if (classic !== undefined) return { value: classic, source: 'OEIS A000170' };
  // The worked example names its own source where it has the value (N(4, 1) = 16 either way).
  const example = n === 4 ? WORKED_EXAMPLE_N4[depth] : undefined;
  if (example !== undefined) return { value: example, source: PROBLEM };
  if (depth === 1) return { value: adjacentApart(n).toString(), source: 'N(n, 1) recurrence' };
  return undefined;
}

/**
 * N(n, 1) by its own recurrence, independent of the kernel: with D = 1 a queen attacks only the
 * next row, so a placement is a sequence of columns whose neighbours differ by at least 2.
 * f(c) counts the sequences ending in column c; one more row gives Σf − f(c−1) − f(c) − f(c+1).
 */
function adjacentApart(n: number): bigint {
  let f: bigint[] = Array.from({ length: n }, () => 1n);
  for (let row = 1; row < n; row++) {
    const total = f.reduce((t, x) => t + x, 0n);
    f = f.map((x, c) => total - x - (f[c - 1] ?? 0n) - (f[c + 1] ?? 0n));
  }
  return f.reduce((t, x) => t + x, 0n);
}
