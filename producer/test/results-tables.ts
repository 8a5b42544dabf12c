// The results table `wq` prints for n = 3 and n = 4 with every value known, line by line: what
// `wq compute 3-4` must print, and what the table's own test starts from, in one place.

export const N3_TABLE_LINES: readonly string[] = [
  'n = 3',
  '   D  N(3, D)',
  '   0       27',
  '   1        2',
  '   2        0',
  'S(3)       29',
];

export const N4_TABLE_LINES: readonly string[] = [
  'n = 4',
  '   D  N(4, D)',
  '   0      256',
  '   1       16',
  '   2        2',
  '   3        2',
  'S(4)      276',
];
