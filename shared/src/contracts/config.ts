// Configuration from the environment (and flags layered on top), compiled once at start with
// defaults and errors that name the variable. Nothing else reads process.env.
import { availableParallelism } from 'node:os';
import { InvalidInputError } from '../kernel/errors.js';
import { defaultSlotMemory, defaultWorkerMemory } from './worker-memory.js';

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
  'WQ_ATTEMPTS',
  'WQ_SHUTDOWN_GRACE_MS',
  'WQ_LOCK_MS',
  'WQ_STALLED_INTERVAL_MS',
  'WQ_MAX_STALLED',
  'WQ_TEST_FAIL_JOBS',
  'WQ_MAX_UNIT_BYTES',
  'WQ_WORKER_MEMORY',
  'WQ_REDIS_WAIT_LOG_MS',
] as const;

export interface RedisSettings {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db: number;
  /** Present for rediss:// (TLS), with the host name to verify. */
  readonly tls?: { readonly servername: string };
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
   * The most memory one unit may be estimated to need (bytes). The planner splits or switches
   * to a smaller-memory algorithm above it, and a worker never runs a unit beyond it.
   */
  readonly maxUnitBytes: number;
  /**
   * The memory a worker may use in all (WQ_WORKER_MEMORY); its heartbeat says so, and the
   * planner fits units to it. Default: a quarter of the machine's memory, shared among its
   * cores, times the worker's slots (`defaultWorkerMemory`).
   */
  readonly workerMemoryBytes: number;
  /**
   * While a worker cannot reach Redis it waits, and says so at most this often (one line, not
   * one per reconnect attempt).
   */
  readonly redisWaitLogMs: number;
}

export interface ClusterNode {
  readonly host: string;
  readonly port: number;
}

export type ConfigOverrides = Partial<Omit<WqConfig, 'redis' | 'redisUrl'>> & {
  readonly redisUrl?: string;
};

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Compiles the configuration; throws InvalidInputError naming the variable that is wrong. */
export function compileConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: ConfigOverrides = {},
): WqConfig {
  const url = overrides.redisUrl ?? nonEmpty(env.REDIS_URL) ?? DEFAULT_REDIS_URL;
  const redis = parseRedisUrl(url);
  const clusterNodes = parseClusterNodes(env.REDIS_CLUSTER_NODES);
  const prefix = overrides.prefix ?? parsePrefix(nonEmpty(env.WQ_PREFIX) ?? 'wq');
  if (clusterNodes) requireHashTag(prefix);
  const lockMs =
    overrides.lockMs ?? integerInRange('WQ_LOCK_MS', env.WQ_LOCK_MS, DEFAULT_LOCK_MS, LOCK_RANGE);
  const concurrency =
    overrides.concurrency ??
    positiveInteger('WQ_CONCURRENCY', env.WQ_CONCURRENCY, availableParallelism(), 1024);
  return {
    redisUrl: clusterNodes ? clusterUrl(clusterNodes) : redactUrl(url),
    redis,
    ...(clusterNodes ? { clusterNodes } : {}),
    prefix,
    concurrency,
    logLevel: overrides.logLevel ?? parseLogLevel(nonEmpty(env.LOG_LEVEL) ?? 'info'),
    targetSeconds:
      overrides.targetSeconds ?? parseTargetSeconds('WQ_TARGET_SECONDS', env.WQ_TARGET_SECONDS),
    attempts: overrides.attempts ?? positiveInteger('WQ_ATTEMPTS', env.WQ_ATTEMPTS, 3, 100),
    shutdownGraceMs:
      overrides.shutdownGraceMs ??
      integerInRange('WQ_SHUTDOWN_GRACE_MS', env.WQ_SHUTDOWN_GRACE_MS, 10_000, GRACE_RANGE),
    lockMs,
    // Derived from the lock so that lock + interval, the longest a dead worker's unit waits
    // before it runs again, is 30 s by default (BullMQ's 30 s + 30 s made it up to a minute).
    stalledIntervalMs:
      overrides.stalledIntervalMs ??
      integerInRange(
        'WQ_STALLED_INTERVAL_MS',
        env.WQ_STALLED_INTERVAL_MS,
        Math.max(STALLED_RANGE.min, Math.round(lockMs / 4)),
        STALLED_RANGE,
      ),
    maxStalled:
      overrides.maxStalled ?? positiveInteger('WQ_MAX_STALLED', env.WQ_MAX_STALLED, 2, 1000),
    testFailJobs:
      overrides.testFailJobs ?? parseJobIdList('WQ_TEST_FAIL_JOBS', env.WQ_TEST_FAIL_JOBS),
    // One slot's share of this machine by default, so the planner's choice follows the machine.
    maxUnitBytes:
      overrides.maxUnitBytes ??
      parseByteSize('WQ_MAX_UNIT_BYTES', env.WQ_MAX_UNIT_BYTES, defaultSlotMemory()),
    workerMemoryBytes:
      overrides.workerMemoryBytes ??
      parseByteSize('WQ_WORKER_MEMORY', env.WQ_WORKER_MEMORY, defaultWorkerMemory(concurrency)),
    redisWaitLogMs:
      overrides.redisWaitLogMs ??
      integerInRange('WQ_REDIS_WAIT_LOG_MS', env.WQ_REDIS_WAIT_LOG_MS, 30_000, WAIT_LOG_RANGE),
  };
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
/** No unit should be planned for more than a day of one core. */
export const MAX_TARGET_SECONDS = 86_400;

/** An integer of milliseconds in `range`, or InvalidInputError naming the field and the range. */
function integerInRange(
  field: string,
  text: string | undefined,
  fallback: number,
  range: Range,
): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < range.min || number > range.max) {
    throw new InvalidInputError(
      field,
      value,
      `an integer of milliseconds from ${range.min} to ${range.max}`,
    );
  }
  return number;
}

/** Single-core seconds per unit for the planner: a number > 0 and at most a day. */
export function parseTargetSeconds(field: string, text: string | undefined, fallback = 30): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  const number = /^\s*(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number <= 0 || number > MAX_TARGET_SECONDS) {
    throw new InvalidInputError(
      field,
      value,
      `a number of seconds > 0 and ≤ ${MAX_TARGET_SECONDS} (a day)`,
    );
  }
  return number;
}

/** Comma-separated job ids as the planner names them: `n12-d9` or `n12-d9-u2`. */
export function parseJobIdList(field: string, text: string | undefined): readonly string[] {
  const value = nonEmpty(text);
  if (value === undefined) return [];
  const ids = value.split(',').map((id) => id.trim());
  for (const id of ids) {
    if (!/^n\d+-d\d+(-u\d+)?$/.test(id)) {
      throw new InvalidInputError(field, id, 'count job ids such as "n12-d9" or "n12-d9-u2"');
    }
  }
  return ids;
}

const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
};

/** No machine this runs on gives one unit more than a tebibyte. */
const MAX_UNIT_BYTES = 1024 ** 4;

/** Bytes as an integer, or with a binary suffix: `1073741824`, `512M`, `4GiB`, `1.5g`. */
export function parseByteSize(field: string, text: string | undefined, fallback: number): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i.exec(value);
  const scale = BYTE_UNITS[match?.[2]?.toLowerCase() ?? ''];
  const bytes = match && scale !== undefined ? Math.floor(Number(match[1]) * scale) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_UNIT_BYTES) {
    throw new InvalidInputError(
      field,
      value,
      'a number of bytes from 1 to 1T, optionally with K, M, G or T (binary: 1G = 1024³), e.g. 512M',
    );
  }
  return bytes;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function parseRedisUrl(url: string, field = 'REDIS_URL'): RedisSettings {
  const allowed = 'redis://[user:password@]host[:port][/db] or rediss:// for TLS';
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
    ...(parsed.protocol === 'rediss:' ? { tls: { servername: host } } : {}),
  };
}

/** The URL with its password replaced, for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** `host:port,host:port,…` (IPv6 as `[::1]:7000`); undefined when the variable is unset. */
export function parseClusterNodes(
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

/** Letters, digits, '_', '-', '.', and at most one `{hash tag}`; no ':' (BullMQ's separator). */
export function parsePrefix(prefix: string, field = 'WQ_PREFIX'): string {
  if (!/^[A-Za-z0-9_.-]*(\{[A-Za-z0-9_.-]+\})?[A-Za-z0-9_.-]*$/.test(prefix) || prefix === '') {
    throw new InvalidInputError(
      field,
      prefix,
      'letters, digits, "_", "-", "." and at most one hash tag such as "{wq}"',
    );
  }
  return prefix;
}

export function parseLogLevel(level: string, field = 'LOG_LEVEL'): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new InvalidInputError(field, level, `one of ${LOG_LEVELS.join(', ')}`);
}

export function positiveInteger(
  field: string,
  text: string | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || number > max) {
    throw new InvalidInputError(field, value, `an integer from 1 to ${max}`);
  }
  return number;
}
