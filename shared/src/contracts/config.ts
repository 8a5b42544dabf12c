// Configuration from the environment (and flags layered on top), compiled once at start with
// defaults and errors that name the variable. Nothing else reads process.env.
import { availableParallelism } from 'node:os';
import { InvalidInputError } from '../errors.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The environment variables the pipeline reads (declared in turbo.json for caching). */
export const CONFIG_ENV = [
  'REDIS_URL',
  'WQ_PREFIX',
  'WQ_CONCURRENCY',
  'LOG_LEVEL',
  'WQ_TARGET_SECONDS',
  'WQ_ATTEMPTS',
  'WQ_SHUTDOWN_GRACE_MS',
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
  return {
    redisUrl: redactUrl(url),
    redis,
    prefix: overrides.prefix ?? parsePrefix(nonEmpty(env.WQ_PREFIX) ?? 'wq'),
    concurrency:
      overrides.concurrency ??
      positiveInteger('WQ_CONCURRENCY', env.WQ_CONCURRENCY, availableParallelism(), 1024),
    logLevel: overrides.logLevel ?? parseLogLevel(nonEmpty(env.LOG_LEVEL) ?? 'info'),
    targetSeconds:
      overrides.targetSeconds ?? positiveNumber('WQ_TARGET_SECONDS', env.WQ_TARGET_SECONDS, 30),
    attempts: overrides.attempts ?? positiveInteger('WQ_ATTEMPTS', env.WQ_ATTEMPTS, 3, 100),
    shutdownGraceMs:
      overrides.shutdownGraceMs ??
      nonNegativeInteger('WQ_SHUTDOWN_GRACE_MS', env.WQ_SHUTDOWN_GRACE_MS, 10_000),
  };
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
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) {
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

function nonNegativeInteger(field: string, text: string | undefined, fallback: number): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new InvalidInputError(field, value, 'an integer ≥ 0');
  return Number(value);
}

export function positiveNumber(field: string, text: string | undefined, fallback: number): number {
  const value = nonEmpty(text);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new InvalidInputError(field, value, 'a number > 0');
  }
  return number;
}
