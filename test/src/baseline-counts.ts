// N(n, D) for n = 1..14 as the C++ baseline printed them (shared/baseline/seed-dp.cpp, run as
// `seed-dp 1 13 1` and `seed-dp 14 14 2`): the seed's sorted-merge DP compiled from its own
// source, independent of the TypeScript kernel the workers run. End-to-end tests take their
// expected N(n, D) from here, so a kernel bug cannot make a wrong count its own expectation.
/** BASELINE_N[n - 1][D] = N(n, D), as decimal strings. */
const BASELINE_N: readonly (readonly string[])[] = [
  ['1'],
  ['4', '0'],
  ['27', '2', '0'],
  ['256', '16', '2', '2'],
  ['3125', '184', '18', '10', '10'],
  ['46656', '2642', '198', '70', '32', '4'],
  ['823543', '45514', '3208', '844', '260', '68', '40'],
  ['16777216', '911642', '61122', '13044', '3166', '508', '200', '92'],
  ['387420489', '20793594', '1329378', '230874', '44882', '6692', '1648', '576', '352'],
  [
    '10000000000',
    '531713286',
    '32755856',
    '4850898',
    '774762',
    '112514',
    '20786',
    '4940',
    '1720',
    '724',
  ],
  [
    '285311670611',
    '15059408170',
    '900948102',
    '117187884',
    '15832030',
    '2280428',
    '371722',
    '72834',
    '17850',
    '6400',
    '2680',
  ],
  [
    '8916100448256',
    '467843350146',
    '27334607888',
    '3187123192',
    '384559246',
    '52845912',
    '8141590',
    '1450160',
    '289528',
    '76192',
    '26640',
    '14200',
  ],
  [
    '302875106592253',
    '15815643320036',
    '906388052012',
    '96591449146',
    '10637737114',
    '1364454426',
    '200335722',
    '32859268',
    '5737224',
    '1272164',
    '348008',
    '149000',
    '73712',
  ],
  [
    '11112006825558016',
    '577912024460656',
    '32597388866050',
    '3223427949586',
    '329427728940',
    '39939447560',
    '5498870962',
    '856633252',
    '137650392',
    '26423706',
    '6048454',
    '2009266',
    '772228',
    '365596',
  ],
];

/** N(n, D) by the baseline; throws for a size it did not count. */
export function baselineN(n: number, depth: number): string {
  const value = BASELINE_N[n - 1]?.[depth];
  if (value === undefined) {
    throw new RangeError(
      `n, depth: no baseline N(${n}, ${depth}); it holds n = 1..${BASELINE_N.length}, D = 0..n − 1`,
    );
  }
  return value;
}

/** N(n, 0..n − 1) by the baseline. */
export function baselineCounts(n: number): string[] {
  return Array.from({ length: n }, (_, depth) => baselineN(n, depth));
}
