// Entry point of the dashboard process (`wq dashboard` spawns this): options from env and flags,
// the server from its factory, its URL on stdout, and a graceful close on every stop signal
// (STOP_SIGNALS) or when the process that started it dies, within WQ_SHUTDOWN_GRACE_MS.
import {
  closeOnStopSignals,
  DASHBOARD_COMMAND_LINE,
  parseCommandLine,
  reportFailure,
  UsageError,
} from '@weak-queens/shared/process';
import { createLogger, probeRedis, RedisUnavailableError } from '@weak-queens/shared/client';
import { parseLogLevel } from '@weak-queens/shared/contracts';
import { dashboardOptionsFromEnv } from './dashboard-options.js';
import { createDashboardServer } from './dashboard-server.js';

/** The command line `wq dashboard` checked and passed on (the same definition on both sides). */
function flags(argv: readonly string[]): { host?: string; port?: string } {
  const { values } = parseCommandLine(DASHBOARD_COMMAND_LINE, argv);
  return {
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.port === undefined ? {} : { port: values.port }),
  };
}

async function main(): Promise<void> {
  const logger = createLogger({
    name: 'wq-dashboard',
    level: parseLogLevel(process.env.LOG_LEVEL?.trim() || 'info'),
  });
  const options = dashboardOptionsFromEnv(process.env, flags(process.argv.slice(2)), logger);
  // A REDIS_URL that can never work (a database the server lacks) stops the dashboard here; a
  // Redis that is only away does not: the dashboard serves and answers 503 until it is back.
  await probeRedis(options.config).catch((err: unknown) => {
    if (!(err instanceof RedisUnavailableError)) throw err;
    logger.warn({ reason: err.message }, 'Redis is not reachable yet; serving 503 until it is');
  });
  const server = createDashboardServer(options);
  const url = await server.listen().catch((err: unknown) => {
    throw listenError(err);
  });
  // stdout carries the URL alone, so scripts (npm start, tests) can read it.
  process.stdout.write(`dashboard: ${url}\n`);
  logger.info(
    { url, token: server.options.token !== undefined, redis: server.options.config.redisUrl },
    'dashboard listening',
  );
  closeOnStopSignals({ logger, message: 'dashboard closing', close: () => server.close() });
}

/** A port in use or not ours to bind is the setup's to change (exit 2), said in one line. */
function listenError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') return err;
  const message = err instanceof Error ? err.message : String(err);
  return new UsageError(`cannot listen: ${message}`);
}

main().catch((err: unknown) => process.exit(reportFailure('wq dashboard', err)));
