// What the sweep registry keeps per sweep (what a user submitted) and per live worker (its
// heartbeat); both are read back from Redis through these schemas.
import * as v from 'valibot';
import { SWEEP_ID } from './job-payloads.js';
import { PROBLEMS } from './problems.js';
import { record } from './schema.js';

const protocolNumber = v.message(v.pipe(v.number(), v.integer(), v.minValue(1)), 'an integer ≥ 1');
const count = v.message(v.pipe(v.number(), v.safeInteger(), v.minValue(0)), 'an integer ≥ 0');
const perSize = (value: v.GenericSchema<unknown, number>, allowed: string) =>
  v.message(v.pipe(v.record(v.string(), value), v.readonly()), allowed);

export const SweepRecordSchema = record({
  id: v.message(v.pipe(v.string(), v.regex(SWEEP_ID)), 'a sweep id such as "s-lx3k2a"'),
  ns: v.message(
    v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.readonly()),
    'a list of sizes n ≥ 1',
  ),
  createdAt: v.message(
    v.pipe(
      v.string(),
      v.check((at) => !Number.isNaN(Date.parse(at))),
    ),
    'an ISO time',
  ),
  targetSeconds: v.message(v.pipe(v.number(), v.gtValue(0)), 'a number of seconds > 0'),
  /** Units planned per n (work already in the result store included). */
  units: perSize(count, 'units per n, each an integer ≥ 0'),
  /** Expected single-core seconds per n (the calibrated plan, stored work included). */
  estimates: v.optional(
    perSize(v.pipe(v.number(), v.minValue(0)), 'seconds per n, each a number ≥ 0'),
  ),
  cancelledAt: v.optional(v.string('an ISO time or absent')),
  /** Every (n, D) counted twice by different algorithms (`wq sweep --verify`). */
  verify: v.optional(v.boolean('true, false or absent')),
  /** What the sweep computes; absent: `weak` (every sweep saved before problems existed). */
  problem: v.optional(v.picklist(PROBLEMS, `one of ${PROBLEMS.join(', ')} or absent`)),
  /** A classic sweep's sample of units counted a second time (`--sample`). */
  sample: v.optional(v.message(v.pipe(v.number(), v.integer(), v.minValue(1)), 'units ≥ 1')),
  /**
   * The n whose flows the submission has handled so far (added, found queued or stored), in
   * the order it took them. The record is saved before the first flow is added and again after
   * each, so a submitter that dies mid-way leaves a record that says how far it got. Absent on
   * records saved before submissions were recorded this way (those were saved complete).
   */
  queued: v.optional(
    v.message(
      v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.readonly()),
      'a list of sizes n ≥ 1 or absent',
    ),
  ),
  /** When every n was handled; absent while queuing, or for ever if the submitter died. */
  submittedAt: v.optional(v.string('an ISO time or absent')),
  /**
   * The protocol of the build that queued it (protocol.ts): its jobs are in that protocol's
   * queues. Absent on sweeps of builds before protocols were numbered (protocol 1).
   */
  protocol: v.optional(protocolNumber),
});
export type SweepRecord = v.InferOutput<typeof SweepRecordSchema>;

export const WorkerInfoSchema = record({
  id: v.string('a worker id'),
  host: v.string('a host name'),
  pid: count,
  concurrency: v.message(v.pipe(v.number(), v.integer(), v.minValue(1)), 'slots ≥ 1'),
  /** Memory this worker may use in all (WQ_WORKER_MEMORY, or derived from its machine). */
  memoryBytes: v.optional(count),
  /**
   * The largest unit it takes per slot (bytes): its memory shared among its slots, at most
   * its WQ_MAX_UNIT_BYTES. It consumes the count queues of the memory classes this holds.
   */
  slotBytes: v.optional(count),
  /** The weak-queens version it runs. */
  version: v.optional(v.string('a version or absent')),
  /**
   * The protocol it speaks (protocol.ts): it takes only the jobs of that protocol's queues.
   * Absent from the heartbeats of builds before protocols were numbered (protocol 1).
   */
  protocol: v.optional(protocolNumber),
  /** What tells its build apart from another of the same version: `0.1.0+d9654b9`. */
  build: v.optional(v.string('a build or absent')),
  startedAt: v.string('an ISO time'),
  /** Job ids being processed at the last heartbeat. */
  active: v.message(v.pipe(v.array(v.string()), v.readonly()), 'a list of job ids'),
  /** Count units finished (completed or failed) since the worker started. */
  jobsDone: v.optional(count),
  /** Milliseconds spent on count units since start, summed over its slots (running ones too). */
  busyMs: v.optional(v.message(v.pipe(v.number(), v.minValue(0)), 'a number ≥ 0')),
  /**
   * When this heartbeat was sent; with startedAt and concurrency it gives the busy share. Both
   * are on the Redis server's clock (the worker's own clock corrected by clockSkewMs).
   */
  heartbeatAt: v.optional(v.string('an ISO time or absent')),
  /**
   * The worker's clock minus the Redis server's (ms), measured at this heartbeat. Liveness is
   * scored on the server's clock whatever this says; beyond CLOCK_SKEW_WARN_MS `wq status`
   * names it, since the worker's own times (its logs, BullMQ's job times) are off by as much.
   */
  clockSkewMs: v.optional(v.message(v.pipe(v.number(), v.finite()), 'a number of ms or absent')),
});
export type WorkerInfo = v.InferOutput<typeof WorkerInfoSchema>;

/** A worker clock this far (ms) from the Redis server's is reported (heartbeat, `wq status`). */
export const CLOCK_SKEW_WARN_MS = 2000;
