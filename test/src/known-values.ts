// Published and independently known values the cross-process tests assert exactly.

/** S(n) for n = 1..14, indexed by n − 1 (S(14) is the value the source document targets). */
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
];

/** S(n) for each n, as a map the tests compare against `PipelineClient.results`. */
export function knownS(ns: readonly number[]): Map<number, string> {
  return new Map(
    ns.map((n) => {
      const value = KNOWN_S[n - 1];
      if (value === undefined) throw new Error(`no known S(${n})`);
      return [n, value];
    }),
  );
}
