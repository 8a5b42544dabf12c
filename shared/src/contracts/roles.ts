/** Which count of an (n, D): the first, or the second of a verified sweep. */
export type Role = 'primary' | 'check';
