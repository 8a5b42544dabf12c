// Options of the dashboard server, from the environment and `wq dashboard` flags, with defaults
// and the bind rule applied in one place: errors name the flag or variable that is wrong.
import { isIP } from 'node:net';
import {
  compileConfig,
  InvalidInputError,
  positiveInteger,
  type WqConfig,
} from '@weak-queens/shared/contracts';
import { type Logger } from '@weak-queens/shared/client';

/** The environment variables the dashboard reads (besides the pipeline's own, see CONFIG_ENV). */
export const DASHBOARD_ENV = [
  'DASHBOARD_TOKEN',
  'DASHBOARD_HOST',
  'DASHBOARD_PORT',
  'DASHBOARD_POLL_MS',
] as const;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3000;
/** A token shorter than this is refused: it would be guessable through the login form. */
export const MIN_TOKEN_LENGTH = 16;

export interface DashboardOptions {
  readonly config: WqConfig;
  readonly logger: Logger;
  /** Where to listen; anything but a loopback address needs a token. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** DASHBOARD_TOKEN: when set, every request needs it (header or login cookie). */
  readonly token?: string;
  /** How often the one shared poll loop reads Redis while a page is open. */
  readonly pollMs?: number;
  /** How long close() waits for open requests and connections; default WQ_SHUTDOWN_GRACE_MS. */
  readonly graceMs?: number;
  /** The live feed's limits (`/api/events`); see LiveFeedLimits. */
  readonly liveFeed?: Partial<LiveFeedLimits>;
}

export interface LiveFeedLimits {
  /** Streams open at once; a newcomer beyond it evicts the stalest one. */
  readonly maxClients: number;
  /** How long a socket that takes no data keeps its stream before it is cut. */
  readonly drainTimeoutMs: number;
  /** A comment line after this much quiet keeps proxies from closing a stream. */
  readonly keepAliveMs: number;
}

const DEFAULT_LIVE_FEED: LiveFeedLimits = {
  maxClients: 100,
  drainTimeoutMs: 5_000,
  keepAliveMs: 15_000,
};

export interface CompiledDashboardOptions {
  readonly config: WqConfig;
  readonly logger: Logger;
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly pollMs: number;
  readonly graceMs: number;
  readonly liveFeed: LiveFeedLimits;
}

export function compileDashboardOptions(options: DashboardOptions): CompiledDashboardOptions {
  const host = options.host ?? DEFAULT_HOST;
  if (!/^[A-Za-z0-9.:_-]{1,253}$/.test(host)) {
    throw new InvalidInputError('host', host, 'an IP address or host name such as 127.0.0.1');
  }
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidInputError('port', port, 'an integer from 0 to 65535');
  }
  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  if (token !== undefined && (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))) {
    throw new InvalidInputError(
      'DASHBOARD_TOKEN',
      '(hidden)',
      `at least ${MIN_TOKEN_LENGTH} printable characters without spaces (e.g. openssl rand -hex 24)`,
    );
  }
  if (token === undefined && !isLoopback(host)) {
    throw new InvalidInputError(
      'host',
      host,
      'a loopback address such as 127.0.0.1, unless DASHBOARD_TOKEN is set ' +
        '(the dashboard can start sweeps and must not be open to the network)',
    );
  }
  const pollMs = options.pollMs ?? 1000;
  if (!Number.isInteger(pollMs) || pollMs < 100 || pollMs > 60_000) {
    throw new InvalidInputError('DASHBOARD_POLL_MS', pollMs, 'an integer from 100 to 60000');
  }
  const graceMs = options.graceMs ?? options.config.shutdownGraceMs;
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > 600_000) {
    throw new InvalidInputError('graceMs', graceMs, 'an integer of milliseconds from 0 to 600000');
  }
  const liveFeed = { ...DEFAULT_LIVE_FEED, ...options.liveFeed };
  const bounds: Record<keyof LiveFeedLimits, readonly [number, number]> = {
    maxClients: [1, 100_000],
    drainTimeoutMs: [10, 600_000],
    keepAliveMs: [10, 600_000],
  };
  for (const [field, [min, max]] of Object.entries(bounds)) {
    const value = liveFeed[field as keyof LiveFeedLimits];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidInputError(`liveFeed.${field}`, value, `an integer from ${min} to ${max}`);
    }
  }
  return {
    config: options.config,
    logger: options.logger,
    host,
    port,
    token,
    pollMs,
    graceMs,
    liveFeed,
  };
}

/** True for addresses only this machine can reach (and the name that means them). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/** Flags of `wq dashboard` layered over the environment. */
export interface DashboardFlags {
  readonly host?: string;
  readonly port?: string;
}

/** Reads DASHBOARD_* and the pipeline's variables; flags win over the environment. */
export function dashboardOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  flags: DashboardFlags,
  logger: Logger,
): DashboardOptions {
  const portText = flags.port ?? env.DASHBOARD_PORT;
  const portField = flags.port === undefined ? 'DASHBOARD_PORT' : '--port';
  const pollText = env.DASHBOARD_POLL_MS;
  return {
    config: compileConfig(env),
    logger,
    host: flags.host ?? nonEmpty(env.DASHBOARD_HOST) ?? DEFAULT_HOST,
    port: parsePort(portField, portText),
    ...(nonEmpty(env.DASHBOARD_TOKEN) ? { token: nonEmpty(env.DASHBOARD_TOKEN) } : {}),
    ...(nonEmpty(pollText)
      ? { pollMs: positiveInteger('DASHBOARD_POLL_MS', pollText, 1000, 60_000) }
      : {}),
  };
}

function parsePort(field: string, text: string | undefined): number {
  const value = nonEmpty(text);
  if (value === undefined) return DEFAULT_PORT;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65_535)) {
    throw new InvalidInputError(field, value, 'an integer from 0 to 65535 (0: any free port)');
  }
  return port;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
