// The Lua the client runs inside Redis: one script per .lua file beside this module, each naming
// its KEYS and ARGV at the top, read when this module loads. A script is sent with EVAL, as every
// client (a pipeline's, a BullMQ queue's, a test's) can run it without registering anything.
import { readFileSync } from 'node:fs';
import type { RedisClient } from '../connection.js';

type Arg = string | number;

/** The variable-length tail some scripts take after their named KEYS and ARGV. */
export interface ScriptTail {
  readonly keys?: readonly string[];
  readonly args?: readonly Arg[];
}

/**
 * A script whose KEYS and ARGV are passed by name; the lists give their positions, in the order
 * the file's header names them (a test holds the two to each other).
 */
export class RedisScript<const K extends string, const A extends string> {
  readonly lua: string;

  constructor(
    readonly name: string,
    readonly keyNames: readonly K[],
    readonly argNames: readonly A[],
  ) {
    // Beside the compiled module (the build copies the .lua files there), also when the CLI
    // bundle runs it: its import.meta.url is then this module's own URL again.
    this.lua = readFileSync(new URL(`${name}.lua`, import.meta.url), 'utf8');
  }

  run(
    redis: RedisClient,
    keys: Readonly<Record<K, string>>,
    args: Readonly<Record<A, Arg>>,
    tail: ScriptTail = {},
  ): Promise<unknown> {
    const allKeys = [...this.keyNames.map((name) => keys[name]), ...(tail.keys ?? [])];
    const allArgs = [...this.argNames.map((name) => args[name]), ...(tail.args ?? [])];
    return redis.eval(this.lua, allKeys.length, ...allKeys, ...allArgs);
  }
}

export const PUT_UNIT = new RedisScript(
  'put-unit',
  ['units', 'calibration', 'disagreements', 'counters', 'depths'],
  [
    'unit',
    'result',
    'algorithm',
    'modelSeconds',
    'actualSeconds',
    'value',
    'disagreementField',
    'disagreement',
    'untrusted',
    'importNote',
    'depth',
    'depthResult',
    'read',
  ],
);

/** PUT_UNIT's reply when a record is stored that the caller must read first. */
export const PUT_UNIT_SEEN = 3;

export const VOUCH_UNIT = new RedisScript('vouch-unit', ['units'], ['unit', 'result', 'value']);

/** Its tail: per n its depths hash, then each D's units and check-units hash; ARGV the n. */
export const STORED_PROGRESS = new RedisScript(
  'stored-progress',
  ['sums', 'mismatches', 'records'],
  ['unitSeconds'],
);

/** Its tail: the sum job ids (ARGV). */
export const QUEUE_STATE = new RedisScript(
  'queue-state',
  ['aggregateCompleted', 'aggregateFailed', 'countActive', 'countFailed', 'workerClocks'],
  ['maxActive', 'maxFailed', 'aggregatePrefix', 'countPrefix'],
);

export const PUT_CLASSIC_UNIT = new RedisScript(
  'put-classic-unit',
  ['units', 'disagreements'],
  ['unit', 'result', 'boards', 'classes', 'disagreementField', 'untrusted'],
);

export const HEARTBEAT = new RedisScript(
  'heartbeat',
  ['workers', 'workerInfo', 'workerClocks'],
  ['id', 'info', 'skew'],
);

export const LIVE_WORKERS = new RedisScript('live-workers', ['workers', 'workerInfo'], ['ttl']);

/** Its tail: the job keys (KEYS). */
export const JOB_DATA = new RedisScript('job-data', [], []);

export const TAKE_SUBMIT_LOCK = new RedisScript('take-submit-lock', ['lock'], ['owner', 'ttl']);

export const RELEASE_SUBMIT_LOCK = new RedisScript('release-submit-lock', ['lock'], ['owner']);
