// The protocol version: what lets builds that read each other's data differently share one
// Redis. Jobs travel only in the queues of their protocol (queues.ts), so a worker never takes
// a job another build wrote; results keep one key layout, and a record a build cannot read is
// left alone and reported, never withdrawn nor taken for a disagreement.

/**
 * Bump it with any change another build would misread: a job payload's fields or meaning, a
 * stored record (unit, N(n, D), S(n), plan) a sum or a check reads, or the queues' layout. A
 * change only this build reads (a log line, a CLI message, a new optional field older builds
 * ignore) needs none. A build still reads the stored records of the protocols before its own
 * (results keep one key layout) and leaves those of a newer one alone.
 */
export const PROTOCOL_VERSION = 2;

/**
 * The protocol of every build before protocols were numbered: its queues are plain `count`
 * and `aggregate`, and its heartbeats, sweeps and plans carry no protocol field.
 */
export const FIRST_PROTOCOL = 1;

/** The protocol of a heartbeat, sweep or plan header: its field, or FIRST_PROTOCOL without one. */
export function protocolOf(record: { readonly protocol?: number | undefined }): number {
  return record.protocol ?? FIRST_PROTOCOL;
}

/** Where a failed sum's reason says its records were left alone (see leftAloneReason). */
const LEFT_ALONE = 'records this build cannot read, left alone:';

/**
 * Why S(n) was not published by a sum that met records it cannot read (another build's, or
 * written by hand): whatever is published stays, and `wq verify` reports the n as unreadable,
 * not as a disagreement.
 */
export function leftAloneReason(n: number, what: readonly string[]): string {
  return `S(${n}) not published: ${LEFT_ALONE} ${what.join('; ')}`;
}

/** True when a sum failed for records it could not read (leftAloneReason), not for a value. */
export function isLeftAlone(reason: string): boolean {
  return reason.includes(LEFT_ALONE);
}
