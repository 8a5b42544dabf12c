// Published values every S(n) is checked against, verified sweep or not: N(n, 0) = n^n (no row
// sees another) and N(n, n−1) = the classic n-queens count (OEIS A000170).

/** OEIS A000170 for n = 1..27: the classic n-queens counts, as decimal strings. */
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

export interface KnownValue {
  readonly value: string;
  /** Where the value comes from, for the failure message. */
  readonly source: string;
}

/** The published N(n, D), when there is one. */
export function knownValue(n: number, depth: number): KnownValue | undefined {
  if (depth === 0) return { value: (BigInt(n) ** BigInt(n)).toString(), source: 'n^n' };
  const classic = depth === n - 1 ? CLASSIC_QUEENS[n - 1] : undefined;
  return classic === undefined ? undefined : { value: classic, source: 'OEIS A000170' };
}
