// Entry point of the dashboard process (`wq dashboard` spawns this): options from env and flags,
// the server from its factory, its URL on stdout, and a graceful close on SIGINT/SIGTERM/SIGHUP
// (or when the process that started it dies), within WQ_SHUTDOWN_GRACE_MS.
import { parseArgs } from 'node:util';
import { createLogger, probeRedis, RedisUnavailableError } from '@weak-queens/shared/client';
import { InvalidInputError, parseLogLevel, WeakQueensError } from '@weak-queens/shared/contracts';
import { dashboardOptionsFromEnv } from './dashboard-options.js';
import { createDashboardServer } from './dashboard-server.js';

const USAGE = 'usage: wq dashboard [--port 3000] [--host 127.0.0.1]';

function flags(argv: string[]): { host?: string; port?: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, port: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    return {
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.port === undefined ? {} : { port: values.port }),
    };
  } catch (err) {
    throw new InvalidInputError('argument', argv.join(' '), `${USAGE} (${errorText(err)})`);
  }
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
  const url = await server.listen();
  // stdout carries the URL alone, so scripts (npm start, tests) can read it.
  process.stdout.write(`dashboard: ${url}\n`);
  logger.info(
    { url, token: server.options.token !== undefined, redis: server.options.config.redisUrl },
    'dashboard listening',
  );
  let signals = 0;
  const stop = (signal: string): void => {
    if (++signals > 1) process.exit(130);
    logger.info({ signal }, 'dashboard closing');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  // Started with an IPC channel (`wq dashboard`, `npm start`): close when that parent dies.
  if (process.send !== undefined) process.once('disconnect', () => stop('parent exited'));
}

function errorText(err: unknown): string {
  return err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
}

main().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    process.stderr.write(`wq dashboard: cannot listen: ${errorText(err)}\n`);
    process.exit(2);
  }
  process.stderr.write(`wq dashboard: ${errorText(err)}\n`);
  process.exit(err instanceof WeakQueensError ? 2 : 1);
});
