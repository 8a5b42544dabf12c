// createDashboardServer(): the Express app with the pipeline client's connection, live feed, metrics and
// bull-board, ready to listen. main.ts (and tests) call listen() and close().
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  type CountQueues,
  fulfilsWithin,
  isConnectionError,
  type RedisClient,
  RedisUnavailableError,
} from '@weak-queens/shared/client';
import {
  InvalidInputError,
  QUEUE_NAMES,
  RedisOutOfMemoryError,
  RedisReadOnlyError,
  redisRefusalOf,
  WeakQueensError,
} from '@weak-queens/shared/contracts';
import { PipelineClient } from '@weak-queens/shared/client';
import { apiRouter } from './api-router.js';
import { TokenAuth } from './auth.js';
import { csrfGuard, issueCsrfCookie, loopbackHostOnly } from './csrf.js';
import {
  type CompiledDashboardOptions,
  compileDashboardOptions,
  type DashboardOptions,
} from './dashboard-options.js';
import { DashboardMetrics } from './dashboard-metrics.js';
import { securityHeaders } from './headers.js';
import { HttpError } from './http-error.js';
import { redisGate, redisUnavailable } from './redis-gate.js';
import { LiveFeed } from './live-feed.js';
import { loginRouter } from './login.js';
import { SnapshotReader } from './snapshot-reader.js';
import { TimelineReader } from './timeline-reader.js';
import { assetRouter, PAGE_FILE, PUBLIC_ASSETS, readPage } from './static-files.js';

/** The rate-based ETA is read every this many polls (10 s at the default 1 s poll). */
const ETA_REFRESH_POLLS = 10;

export class DashboardServer {
  readonly app: express.Express;
  readonly options: CompiledDashboardOptions;
  readonly feed: LiveFeed;
  readonly metrics: DashboardMetrics;
  private readonly server: Server;
  private readonly redis: RedisClient;
  private readonly client: PipelineClient;
  private readonly queues: { readonly count: CountQueues; readonly aggregate: Queue };
  private closing?: Promise<void>;

  constructor(options: DashboardOptions) {
    this.options = compileDashboardOptions(options);
    const { config, logger, token, pollMs } = this.options;
    // One connection and one pair of queues, the pipeline client's, for every read and control.
    this.client = new PipelineClient(config);
    const connection = this.client.connection;
    this.redis = connection.redis;
    this.queues = { count: connection.countQueues, aggregate: connection.queues.aggregate };
    this.redis.on('error', (err) => logger.debug({ err }, 'redis connection error'));
    for (const queue of [connection.queues.count, connection.queues.aggregate]) {
      queue.on('error', (err: Error) => logger.debug({ err }, 'queue connection error'));
    }
    const reader = new SnapshotReader(this.client, { etaRefreshMs: ETA_REFRESH_POLLS * pollMs });
    this.feed = new LiveFeed({
      read: () => reader.read(),
      pollMs,
      logger,
      ...this.options.liveFeed,
    });
    this.metrics = new DashboardMetrics({
      config,
      logger,
      countQueues: this.queues.count,
      aggregate: this.queues.aggregate,
      registry: this.client.registry,
      sweeps: () => reader.read().then((snapshot) => snapshot.sweeps),
    });

    const auth = new TokenAuth(token);
    const app = express();
    app.disable('x-powered-by');
    app.set('trust proxy', false);
    app.use(securityHeaders);
    if (!auth.enabled) app.use(loopbackHostOnly);
    // For health checks (docker compose): says nothing but "ok", so it needs no token.
    app.get('/healthz', (_req, res) => {
      res.type('text/plain').send('ok\n');
    });
    app.use(loginRouter(auth));
    app.use(assetRouter(PUBLIC_ASSETS));
    app.use(auth.gate());
    app.use(csrfGuard({ originOnly: ['/queues'] }));
    app.get(['/', '/index.html'], (req, res) => {
      issueCsrfCookie(req, res);
      res.type('html').send(readPage(PAGE_FILE));
    });
    app.use(assetRouter());
    // Everything below reads Redis: 503 at once while it is away, and no read waits forever.
    app.use(['/metrics', '/api', '/queues'], redisGate(this.redis, { exempt: ['/api/session'] }));
    app.get('/metrics', async (_req, res) => {
      const text = await this.metrics.text();
      res.type(this.metrics.contentType).send(text);
    });
    app.use(
      '/api',
      express.json({ limit: '4kb', strict: true, type: 'application/json' }),
      apiRouter({
        client: this.client,
        reader,
        timelines: new TimelineReader(this.client),
        feed: this.feed,
        removeTimeoutMs: 5_000,
      }),
    );
    app.use('/queues', bullBoard(this.queues, { readOnly: !auth.enabled }));
    app.use((req, _res, next) => {
      next(new HttpError(404, 'not_found', `nothing at ${req.method} ${req.path}`));
    });
    app.use(errorHandler(logger));
    this.app = app;
    this.server = createServer(app);
    // SSE streams stay open; the default 5 s keep-alive would not matter, but headers should.
    this.server.headersTimeout = 20_000;
    this.server.requestTimeout = 0;
  }

  /** Listens on the configured (or given) host and port; resolves to the URL to open. */
  async listen(port = this.options.port, host = this.options.host): Promise<string> {
    this.server.listen(port, host);
    await once(this.server, 'listening');
    return this.url;
  }

  get url(): string {
    const address = this.server.address() as AddressInfo | null;
    if (!address) return '';
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/`;
  }

  /**
   * Ends the live streams, stops listening, and closes every Redis connection, within the grace
   * time: what is still open then (a request Redis left hanging, a connection that cannot say
   * goodbye to a Redis that is down) is cut. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const { graceMs, logger } = this.options;
    this.feed.close();
    const graceful = this.closeGracefully();
    if (!(await fulfilsWithin(graceful, graceMs))) {
      logger.warn({ graceMs }, 'grace time over: cutting open requests and connections');
      this.server.closeAllConnections();
      this.redis.disconnect();
      graceful.catch(() => undefined);
    }
  }

  private async closeGracefully(): Promise<void> {
    if (this.server.listening) {
      const closed = once(this.server, 'close');
      this.server.close();
      this.server.closeIdleConnections();
      await closed;
    }
    // Side by side: with Redis away each cuts its connections after a short wait of its own.
    await Promise.all([this.metrics.close(), this.client.close()]);
  }
}

/** Builds the dashboard (connections open lazily); call listen() to serve it. */
export function createDashboardServer(options: DashboardOptions): DashboardServer {
  return new DashboardServer(options);
}

function bullBoard(
  queues: { readonly count: CountQueues; readonly aggregate: Queue },
  options: { readOnly: boolean },
): express.Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath('/queues');
  const adapt = (q: Queue): BullMQAdapter =>
    new BullMQAdapter(q, { readOnlyMode: options.readOnly });
  const board = createBullBoard({
    queues: [queues.count.get(), queues.aggregate].map(adapt),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'weak-queens jobs' } },
  });
  const shown = new Set<string>([QUEUE_NAMES.count]);
  const router = express.Router();
  // Memory-class count queues appear when a sweep first uses one: add them as they are listed.
  router.use((_req, _res, next) => {
    queues.count.names().then(
      (names) => {
        for (const name of names.filter((q) => !shown.has(q))) {
          shown.add(name);
          board.addQueue(adapt(queues.count.get(name)));
        }
        next();
      },
      (err: unknown) => next(err),
    );
  });
  if (options.readOnly) {
    // Read-only without a token: bull-board hides its buttons, and its API refuses writes too.
    router.use((req, _res, next) => {
      if (req.method === 'GET' || req.method === 'HEAD') next();
      else next(new HttpError(403, 'read_only', 'bull-board is read-only without DASHBOARD_TOKEN'));
    });
  }
  router.use(withoutRemoteStylesheets);
  router.use(serverAdapter.getRouter() as express.Router);
  return router;
}

/**
 * bull-board's page links a web-font stylesheet from Google: a request to a third party on
 * every visit, refused by the CSP (and unreachable offline), and a console error each time. The
 * page is rendered without it; the fonts fall back to the system's.
 */
function withoutRemoteStylesheets(_req: Request, res: Response, next: NextFunction): void {
  const render = res.render.bind(res);
  res.render = (view: string, options?: object) => {
    render(view, options ?? {}, (err: Error | null, html?: string) => {
      if (err) next(err);
      else res.send(stripRemoteStylesheets(html ?? ''));
    });
  };
  next();
}

/** The page without `<link rel="stylesheet">` elements that point off this origin. */
function stripRemoteStylesheets(html: string): string {
  return html.replace(/<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>/gi, (link) =>
    /\brel="stylesheet"/i.test(link) ? '' : link,
  );
}

/** Every error ends as JSON {error: {code, message, field?, allowed?}}; stacks only in the log. */
function errorHandler(logger: CompiledDashboardOptions['logger']) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const http = toHttpError(err);
    if (http.status >= 500) logger.error({ err, path: req.path }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(http.status).json(http.toBody());
  };
}

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  // Redis refused the write (out of memory, or a read-only replica): the service, not the
  // caller, must change, and the answer says how.
  const refusal = redisRefusalOf(err);
  if (refusal instanceof RedisOutOfMemoryError) {
    return new HttpError(503, 'redis_out_of_memory', refusal.message);
  }
  if (refusal instanceof RedisReadOnlyError) {
    return new HttpError(503, 'redis_read_only', refusal.message);
  }
  // Redis went away while the request was being served: not the caller's fault, nor a bug.
  if (err instanceof RedisUnavailableError || isConnectionError(err)) return redisUnavailable();
  if (err instanceof InvalidInputError) {
    return new HttpError(400, 'invalid_input', err.message, err.field, err.allowed);
  }
  if (err instanceof WeakQueensError) return new HttpError(400, 'invalid_input', err.message);
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') {
    return new HttpError(
      400,
      'invalid_json',
      'the body is not valid JSON',
      'body',
      'a JSON object',
    );
  }
  if (type === 'entity.too.large') {
    return new HttpError(413, 'too_large', 'the body is too large', 'body', 'at most 4 kB');
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new HttpError(415, 'unsupported', 'unsupported body encoding', 'body', 'UTF-8 JSON');
  }
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, 'bad_request', 'the request could not be read');
  }
  return new HttpError(500, 'internal', 'internal error (see the dashboard log)');
}
