// Configuration from the environment (and flags layered on top), compiled once at start with
// defaults and errors that name the variable. Nothing else reads process.env.
import { isIP } from 'node:net';
import * as v from 'valibot';
import { InvalidInputError } from '../kernel/errors.js';
import { defaultSlots, memoryBudget } from './worker-memory.js';
import { parseInput, refine } from './schema.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The environment variables the pipeline reads (declared in turbo.json for caching). */
export const CONFIG_ENV = [
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'WQ_PREFIX',
  'WQ_CONCURRENCY',
  'LOG_LEVEL',
  'WQ_TARGET_SECONDS',
  'WQ_MAX_SWEEP_CORE_SECONDS',
  'WQ_ATTEMPTS',
  'WQ_SHUTDOWN_GRACE_MS',
  'WQ_LOCK_MS',
  'WQ_STALLED_INTERVAL_MS',
  'WQ_MAX_STALLED',
  'WQ_TEST_FAIL_JOBS',
  'WQ_TEST_PROTOCOL',
  'WQ_SLOT_MEMORY',
  'WQ_WORKER_MEMORY',
  'WQ_MAX_UNIT_BYTES',
  'WQ_REDIS_WAIT_LOG_MS',
  'WQ_REDIS_OUTAGE_MS',
  'WQ_RESULT_KEY',
] as const;

export interface RedisSettings {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db: number;
  /**
   * Present for rediss:// (TLS), with the host name to verify (SNI). An IP address is no
   * server name (Node warns, DEP0123): the certificate is then checked against the address.
   */
  readonly tls?: { readonly servername?: string };
}

export interface WqConfig {
  /** The URL without its password, safe to log. */
  readonly redisUrl: string;
  readonly redis: RedisSettings;
  /**
   * REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster. When present every connection is a
   * cluster client (the rest of the cluster is found from them) and REDIS_URL is not used.
   */
  readonly clusterNodes?: readonly ClusterNode[];
  /** Key prefix of the queues and the result store; `{wq}` keeps them in one cluster slot. */
  readonly prefix: string;
  /** Units computed at once by one worker process. */
  readonly concurrency: number;
  readonly logLevel: LogLevel;
  /** The planner splits an (n, D) until no unit is estimated above this (single-core seconds). */
  readonly targetSeconds: number;
  /**
   * A sweep estimated above this many single-core seconds is refused before it is planned or
   * queued (`wq sweep --allow-huge` overrides it). Default: a core-year.
   */
  readonly maxSweepCoreSeconds: number;
  /** Tries per job for transient errors (exponential backoff between them). */
  readonly attempts: number;
  /** How long a closing worker lets active units finish before handing them back. */
  readonly shutdownGraceMs: number;
  /**
   * How long a worker's lock on a job lasts without renewal (renewed every half of it). A worker
   * that dies or loses its link holds its units at most this long before they can be re-run.
   */
  readonly lockMs: number;
  /** How often each worker looks for jobs whose lock expired (stalled) and puts them back. */
  readonly stalledIntervalMs: number;
  /** How many times one job may stall (its worker died) and be put back before it fails. */
  readonly maxStalled: number;
  /**
   * TEST ONLY (WQ_TEST_FAIL_JOBS): count job ids such as `n12-d9-u2` that the worker fails on
   * every attempt with a retryable error, to exercise attempts, failure reporting and retry.
   */
  readonly testFailJobs: readonly string[];
  /**
   * TEST ONLY (WQ_TEST_PROTOCOL): the protocol a worker speaks instead of this build's, so a
   * test can stand one worker beside it as another build would (its queues, its heartbeat).
   */
  readonly testProtocol?: number;
  /**
   * WQ_SLOT_MEMORY: the most memory one unit on one slot may be estimated to need (bytes). The
   * planner splits or switches to a smaller-memory algorithm above it; a worker advertises it
   * in its heartbeat and never runs such a unit beyond it. Derived in worker-memory.ts.
   */
  readonly slotMemoryBytes: number;
  /**
   * WQ_WORKER_MEMORY: the memory a worker may use in all, which a window transfer (alone on
   * all its worker's slots) may use whole; its heartbeat says so. Derived in worker-memory.ts.
   */
  readonly workerMemoryBytes: number;
  /**
   * While a worker cannot reach Redis it waits, and says so at most this often (one line, not
   * one per reconnect attempt).
   */
  readonly redisWaitLogMs: number;
  /**
   * How long a client (`wq sweep --wait`, `wq status --watch`, `npm start`, the dashboard) waits
   * through a Redis restart or failover, saying so once, before it gives up with one line (exit
   * 1). Workers wait forever: they have nothing to report to.
   */
  readonly redisOutageMs: number;
  /**
   * WQ_RESULT_KEY: a secret shared by every worker and client. When set, every stored unit,
   * depth and sum record carries an HMAC under it, and a record without a valid one is not a
   * result (result-seal.ts). Unset: results are unauthenticated (`wq status` says so).
   */
  readonly resultKey?: string;
}

export interface ClusterNode {
  readonly host: string;
  readonly port: number;
}

export type ConfigOverrides = Partial<Omit<WqConfig, 'redis' | 'redisUrl'>> & {
  readonly redisUrl?: string;
};

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Which override replaces which variable: an overridden variable is not even read. */
const OVERRIDDEN_BY: Readonly<
  Record<(typeof CONFIG_ENV)[number], keyof ConfigOverrides | undefined>
> = {
  REDIS_URL: 'redisUrl',
  REDIS_CLUSTER_NODES: undefined,
  WQ_PREFIX: 'prefix',
  WQ_CONCURRENCY: 'concurrency',
  LOG_LEVEL: 'logLevel',
  WQ_TARGET_SECONDS: 'targetSeconds',
  WQ_MAX_SWEEP_CORE_SECONDS: 'maxSweepCoreSeconds',
  WQ_ATTEMPTS: 'attempts',
  WQ_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  WQ_LOCK_MS: 'lockMs',
  WQ_STALLED_INTERVAL_MS: 'stalledIntervalMs',
  WQ_MAX_STALLED: 'maxStalled',
  WQ_TEST_FAIL_JOBS: 'testFailJobs',
  WQ_TEST_PROTOCOL: 'testProtocol',
  WQ_SLOT_MEMORY: 'slotMemoryBytes',
  WQ_WORKER_MEMORY: 'workerMemoryBytes',
  WQ_MAX_UNIT_BYTES: 'slotMemoryBytes',
  WQ_REDIS_WAIT_LOG_MS: 'redisWaitLogMs',
  WQ_REDIS_OUTAGE_MS: 'redisOutageMs',
  WQ_RESULT_KEY: 'resultKey',
};

/** Compiles the configuration; throws InvalidInputError naming the variable that is wrong. */
export function compileConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: ConfigOverrides = {},
): WqConfig {
  // Blank is unset; what an override replaces is not read at all (a flag beats a bad variable).
  const input: Record<string, string> = {};
  for (const name of CONFIG_ENV) {
    const value = nonEmpty(env[name]);
    const override = OVERRIDDEN_BY[name];
    if (value !== undefined && (override === undefined || overrides[override] === undefined)) {
      input[name] = value;
    }
  }
  const vars = parseInput(ConfigEnvSchema, input, { name: '', qualify: false });
  if (overrides.redisUrl === undefined && vars.REDIS_CLUSTER_NODES === undefined) {
    refuseBlankRedisUrl(env.REDIS_URL);
  }
  const url = overrides.redisUrl ?? vars.REDIS_URL ?? DEFAULT_REDIS_URL;
  const lockMs = overrides.lockMs ?? vars.WQ_LOCK_MS ?? DEFAULT_LOCK_MS;
  // The cores, or in a container with a CPU quota its whole CPUs (worker-memory.ts).
  const concurrency = overrides.concurrency ?? vars.WQ_CONCURRENCY ?? defaultSlots();
  const clusterNodes = vars.REDIS_CLUSTER_NODES;
  const prefix = overrides.prefix ?? vars.WQ_PREFIX ?? 'wq';
  if (clusterNodes) requireHashTag(prefix);
  const slotMemoryBytes = overrides.slotMemoryBytes ?? vars.WQ_SLOT_MEMORY;
  if (slotMemoryBytes === undefined && vars.WQ_MAX_UNIT_BYTES !== undefined) {
    warnDeprecated('WQ_MAX_UNIT_BYTES', MAX_UNIT_BYTES_DEPRECATION);
  }
  const memory = memoryBudget({
    slots: concurrency,
    slotMemoryBytes,
    workerMemoryBytes: overrides.workerMemoryBytes ?? vars.WQ_WORKER_MEMORY,
    maxUnitBytes: vars.WQ_MAX_UNIT_BYTES,
  });
  const resultKey = overrides.resultKey ?? vars.WQ_RESULT_KEY;
  const testProtocol = overrides.testProtocol ?? vars.WQ_TEST_PROTOCOL;
  return {
    redisUrl: clusterNodes ? clusterUrl(clusterNodes) : redactUrl(url),
    redis: parseRedisUrl(url),
    ...(clusterNodes ? { clusterNodes } : {}),
    prefix,
    concurrency,
    logLevel: overrides.logLevel ?? vars.LOG_LEVEL ?? 'info',
    targetSeconds: overrides.targetSeconds ?? vars.WQ_TARGET_SECONDS ?? 30,
    maxSweepCoreSeconds:
      overrides.maxSweepCoreSeconds ??
      vars.WQ_MAX_SWEEP_CORE_SECONDS ??
      DEFAULT_MAX_SWEEP_CORE_SECONDS,
    attempts: overrides.attempts ?? vars.WQ_ATTEMPTS ?? 3,
    shutdownGraceMs: overrides.shutdownGraceMs ?? vars.WQ_SHUTDOWN_GRACE_MS ?? 10_000,
    lockMs,
    // Derived from the lock so that lock + interval, the longest a dead worker's unit waits
    // before it runs again, is 30 s by default (BullMQ's 30 s + 30 s made it up to a minute).
    stalledIntervalMs:
      overrides.stalledIntervalMs ??
      vars.WQ_STALLED_INTERVAL_MS ??
      Math.max(STALLED_RANGE.min, Math.round(lockMs / 4)),
    maxStalled: overrides.maxStalled ?? vars.WQ_MAX_STALLED ?? 2,
    testFailJobs: overrides.testFailJobs ?? vars.WQ_TEST_FAIL_JOBS ?? [],
    ...(testProtocol === undefined ? {} : { testProtocol }),
    // This machine's shares by default, so the planner's choice follows the machine.
    ...memory,
    redisWaitLogMs: overrides.redisWaitLogMs ?? vars.WQ_REDIS_WAIT_LOG_MS ?? 30_000,
    // Twice the longest usual outage: a restart with a large AOF, or a failover (node timeout
    // plus an election) takes well under a minute.
    redisOutageMs: overrides.redisOutageMs ?? vars.WQ_REDIS_OUTAGE_MS ?? DEFAULT_REDIS_OUTAGE_MS,
    ...(resultKey === undefined ? {} : { resultKey }),
  };
}

const MAX_UNIT_BYTES_DEPRECATION =
  'WQ_MAX_UNIT_BYTES is deprecated: set WQ_SLOT_MEMORY (the memory of one unit on one slot) and, ' +
  'to cap a window transfer too as WQ_MAX_UNIT_BYTES did, WQ_WORKER_MEMORY';

const warned = new Set<string>();

/**
 * Says once per process that a deprecated variable is still read. A Node warning, not a log
 * line: the logger is made from this very configuration (its level), so none exists yet.
 */
function warnDeprecated(variable: string, message: string): void {
  if (warned.has(variable)) return;
  warned.add(variable);
  process.emitWarning(message, { type: 'DeprecationWarning', code: `WQ_DEP_${variable}` });
}

interface Range {
  readonly min: number;
  readonly max: number;
}

const HOUR_MS = 3_600_000;
/** The default lock; with the derived stall interval (a quarter of it) a dead unit waits ≤ 30 s. */
export const DEFAULT_LOCK_MS = 24_000;
/** A lock shorter than a few renewals is useless; one over an hour hides a dead worker. */
const LOCK_RANGE: Range = { min: 500, max: HOUR_MS };
const STALLED_RANGE: Range = { min: 100, max: HOUR_MS };
const GRACE_RANGE: Range = { min: 0, max: 10 * 60_000 };
const WAIT_LOG_RANGE: Range = { min: 100, max: HOUR_MS };
const DEFAULT_REDIS_OUTAGE_MS = 120_000;
const OUTAGE_RANGE: Range = { min: 1000, max: 24 * HOUR_MS };
/** No unit should be planned for more than a day of one core. */
export const MAX_TARGET_SECONDS = 86_400;

/** An integer of milliseconds in `range`, from its decimal text. */
function milliseconds(range: Range) {
  return v.message(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/),
      v.transform(Number),
      v.safeInteger(),
      v.minValue(range.min),
      v.maxValue(range.max),
    ),
    `an integer of milliseconds from ${range.min} to ${range.max}`,
  );
}

/** An integer from 1 to `max`, from its decimal text. */
function positiveIntegerText(max: number) {
  return v.message(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1), v.maxValue(max)),
    `an integer from 1 to ${max}`,
  );
}

/** A finite number > 0 and at most `max`, from its decimal text (`2.5`, `3.2e7`). */
function positiveNumberText(max: number, allowed: string) {
  return v.message(
    v.pipe(
      v.string(),
      v.regex(/^\s*(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/),
      v.transform(Number),
      v.finite(),
      v.gtValue(0),
      v.maxValue(max),
    ),
    allowed,
  );
}

/** Single-core seconds per unit for the planner: a number > 0 and at most a day. */
const TargetSecondsSchema = positiveNumberText(
  MAX_TARGET_SECONDS,
  `a number of seconds > 0 and ≤ ${MAX_TARGET_SECONDS} (a day)`,
);

/** A core-year: more than that is rarely meant (`wq sweep 32` would take ~1e22 of them). */
const DEFAULT_MAX_SWEEP_CORE_SECONDS = 365.25 * 86_400;

/** Single-core seconds a sweep may be estimated at: a number > 0, e.g. `3.2e7`. */
const CoreSecondsSchema = positiveNumberText(
  Number.MAX_VALUE,
  'a number of single-core seconds > 0, such as 3.2e7 (a core-year)',
);

const JOB_ID = /^n\d+-d\d+(-u\d+)?$/;

/** Comma-separated job ids as the planner names them: `n12-d9` or `n12-d9-u2`. */
const JobIdListSchema = v.pipe(
  v.string(),
  refine((text: string): readonly string[] => {
    const ids = text.split(',').map((id) => id.trim());
    // The error echoes the one id that is wrong, not the whole list.
    const bad = ids.find((id) => !JOB_ID.test(id));
    if (bad !== undefined) {
      throw new InvalidInputError('', bad, 'count job ids such as "n12-d9" or "n12-d9-u2"');
    }
    return ids;
  }),
);

const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
};

/** No machine this runs on gives one unit more than a tebibyte. */
const MAX_BYTE_SIZE = 1024 ** 4;

/** Bytes as an integer, or with a binary suffix: `1073741824`, `512M`, `4GiB`, `1.5g`. */
const ByteSizeSchema = v.message(
  v.pipe(
    v.string(),
    v.regex(/^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i),
    v.transform((text) => {
      const [, number, unit] = /^(\d+(?:\.\d+)?)\s*([kmgt]?)/i.exec(text) ?? [];
      return Math.floor(Number(number) * (BYTE_UNITS[unit?.toLowerCase() ?? ''] ?? NaN));
    }),
    v.safeInteger(),
    v.minValue(1),
    v.maxValue(MAX_BYTE_SIZE),
  ),
  'a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M',
);

/** Letters, digits, '_', '-', '.', and at most one `{hash tag}`; no ':' (BullMQ's separator). */
const PrefixSchema = v.message(
  v.pipe(
    v.string(),
    v.nonEmpty(),
    v.regex(/^[A-Za-z0-9_.-]*(\{[A-Za-z0-9_.-]+\})?[A-Za-z0-9_.-]*$/),
  ),
  'letters, digits, "_", "-", "." and at most one hash tag such as "{wq}"',
);

const LogLevelSchema = v.picklist(LOG_LEVELS, `one of ${LOG_LEVELS.join(', ')}`);

/**
 * The environment as the pipeline reads it (blank variables removed first): each variable
 * parsed from its text. Defaults are applied by compileConfig, since some follow from others.
 */
export const ConfigEnvSchema = v.object({
  /** Taken apart by parseRedisUrl (host, port, database, TLS), which names the part that is wrong. */
  REDIS_URL: v.optional(v.string()),
  /** Taken apart by parseClusterNodes (`host:port,…`), which echoes the one entry that is wrong. */
  REDIS_CLUSTER_NODES: v.optional(
    v.pipe(
      v.string(),
      refine((text: string) => parseClusterNodes(text) ?? []),
    ),
  ),
  WQ_PREFIX: v.optional(PrefixSchema),
  WQ_CONCURRENCY: v.optional(positiveIntegerText(1024)),
  LOG_LEVEL: v.optional(LogLevelSchema),
  WQ_TARGET_SECONDS: v.optional(TargetSecondsSchema),
  WQ_MAX_SWEEP_CORE_SECONDS: v.optional(CoreSecondsSchema),
  WQ_ATTEMPTS: v.optional(positiveIntegerText(100)),
  WQ_SHUTDOWN_GRACE_MS: v.optional(milliseconds(GRACE_RANGE)),
  WQ_LOCK_MS: v.optional(milliseconds(LOCK_RANGE)),
  WQ_STALLED_INTERVAL_MS: v.optional(milliseconds(STALLED_RANGE)),
  WQ_MAX_STALLED: v.optional(positiveIntegerText(1000)),
  WQ_TEST_FAIL_JOBS: v.optional(JobIdListSchema),
  WQ_TEST_PROTOCOL: v.optional(positiveIntegerText(1000)),
  WQ_SLOT_MEMORY: v.optional(ByteSizeSchema),
  WQ_WORKER_MEMORY: v.optional(ByteSizeSchema),
  /** Deprecated for WQ_SLOT_MEMORY (see MemorySettings.maxUnitBytes); still read, and warned of. */
  WQ_MAX_UNIT_BYTES: v.optional(ByteSizeSchema),
  WQ_REDIS_WAIT_LOG_MS: v.optional(milliseconds(WAIT_LOG_RANGE)),
  WQ_REDIS_OUTAGE_MS: v.optional(milliseconds(OUTAGE_RANGE)),
  // A short secret is guessable: 16 characters at least (`openssl rand -hex 32` makes 64).
  WQ_RESULT_KEY: v.optional(
    v.message(
      v.pipe(v.string(), v.minLength(16)),
      'a secret of at least 16 characters (e.g. `openssl rand -hex 32`)',
    ),
  ),
});
export type ConfigEnv = v.InferOutput<typeof ConfigEnvSchema>;

/** One variable or flag: its value, or undefined when it is blank or unset. */
function valueOf<S extends v.GenericSchema<string, unknown>>(
  schema: S,
  field: string,
  text: string | undefined,
): v.InferOutput<S> | undefined {
  const value = nonEmpty(text);
  return value === undefined ? undefined : parseInput(schema, value, { name: field });
}

/** Single-core seconds per unit for the planner: a number > 0 and at most a day. */
export function parseTargetSeconds(field: string, text: string | undefined, fallback = 30): number {
  return valueOf(TargetSecondsSchema, field, text) ?? fallback;
}

/** Bytes as an integer, or with a binary suffix: `1073741824`, `512M`, `4GiB`, `1.5g`. */
export function parseByteSize(field: string, text: string | undefined, fallback: number): number {
  return valueOf(ByteSizeSchema, field, text) ?? fallback;
}

export function positiveInteger(
  field: string,
  text: string | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  return valueOf(positiveIntegerText(max), field, text) ?? fallback;
}

export function parseLogLevel(level: string, field = 'LOG_LEVEL'): LogLevel {
  return parseInput(LogLevelSchema, level, { name: field });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

const REDIS_URL_ALLOWED = 'redis://[user:password@]host[:port][/db] or rediss:// for TLS';

/**
 * A REDIS_URL set but blank is a mistake (an unset shell variable, `REDIS_URL=` in a file), not a
 * wish for the default server: taken as unset it would send every command to 127.0.0.1:6379,
 * maybe someone else's Redis. With REDIS_CLUSTER_NODES it only carries credentials, and blank
 * means none.
 */
function refuseBlankRedisUrl(text: string | undefined): void {
  if (text !== undefined && text.trim() === '') {
    throw new InvalidInputError(
      'REDIS_URL',
      text,
      `${REDIS_URL_ALLOWED} (unset it for ${DEFAULT_REDIS_URL})`,
    );
  }
}

export function parseRedisUrl(url: string, field = 'REDIS_URL'): RedisSettings {
  const allowed = REDIS_URL_ALLOWED;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError(field, redactUrl(url), allowed);
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    throw new InvalidInputError(field, redactUrl(url), allowed);
  }
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const dbText = parsed.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : /^\d{1,10}$/.test(dbText) ? Number(dbText) : NaN;
  // Redis numbers its databases with a C int; whether this server has that many is checked
  // when connecting (see redis-probe.ts).
  if (!Number.isInteger(db) || db < 0 || db > 2 ** 31 - 1) {
    throw new InvalidInputError(`${field} database`, dbText, 'a database number such as /0');
  }
  // IPv6 hosts come back bracketed from URL; ioredis wants them bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port,
    db,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: isIP(host) ? {} : { servername: host } } : {}),
  };
}

/** The URL with its password replaced, for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** `host:port,host:port,…` (IPv6 as `[::1]:7000`); undefined when the variable is unset. */
function parseClusterNodes(
  text: string | undefined,
  field = 'REDIS_CLUSTER_NODES',
): readonly ClusterNode[] | undefined {
  const value = nonEmpty(text);
  if (value === undefined) return undefined;
  return value.split(',').map((entry) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(entry.trim());
    const port = Number(match?.[3]);
    const host = match?.[1] ?? match?.[2];
    if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new InvalidInputError(
        field,
        entry.trim(),
        'comma-separated host:port entries such as 10.0.0.1:7000,10.0.0.2:7000 (port 1 to 65535)',
      );
    }
    return { host, port };
  });
}

/**
 * On a cluster, BullMQ's and the store's scripts touch several keys at once, and Redis runs a
 * script only when all its keys are in one slot: the prefix's hash tag is what puts them there.
 */
function requireHashTag(prefix: string): void {
  if (!/\{[^{}]+\}/.test(prefix)) {
    throw new InvalidInputError(
      'WQ_PREFIX',
      prefix,
      'a prefix with a hash tag such as "{wq}" when REDIS_CLUSTER_NODES is set (a Redis Cluster runs a script only when all its keys share one slot)',
    );
  }
}

/** How a cluster is named in logs and errors, in place of REDIS_URL. */
function clusterUrl(nodes: readonly ClusterNode[]): string {
  const hosts = nodes.map(
    ({ host, port }) => (host.includes(':') ? `[${host}]` : host) + `:${port}`,
  );
  return `redis-cluster://${hosts.join(',')}`;
}
