// The JSON API the page uses (and scripts may): sweeps and their timelines, results, workers,
// live events, and the three controls (start, cancel, retry). Every input goes through
// validation.ts first.
import { Router } from 'express';
import { MAX_N } from '@weak-queens/shared/kernel';
import { type PipelineClient, resultsCsv, resultsJsonLine } from '@weak-queens/shared/client';
import { HttpError } from './http-error.js';
import type { LiveFeed } from './live-feed.js';
import type { SnapshotReader } from './snapshot-reader.js';
import type { TimelineReader } from './timeline-reader.js';
import {
  parseEmptyBody,
  parseEmptyQuery,
  parseResultsQuery,
  parseSweepId,
  parseSweepListQuery,
  parseSweepRequest,
  parseTimelineQuery,
} from './validation.js';

export interface ApiDeps {
  readonly client: PipelineClient;
  readonly reader: SnapshotReader;
  readonly timelines: TimelineReader;
  readonly feed: LiveFeed;
  /** How long cancel and retry wait for running units before answering. */
  readonly removeTimeoutMs: number;
}

export function apiRouter(deps: ApiDeps): Router {
  const { client, reader, timelines, feed } = deps;
  const router = Router();

  router.get('/sweeps', async (req, res) => {
    const { limit } = parseSweepListQuery(req.query);
    const snapshot = limit === 20 ? await feed.latest() : await reader.read({ limit });
    res.json({ generatedAt: snapshot.generatedAt, sweeps: snapshot.sweeps });
  });

  router.get('/sweeps/:id', async (req, res) => {
    parseEmptyQuery(req.query);
    const id = parseSweepId(req.params.id);
    const sweep = await reader.sweep(id);
    if (!sweep) throw new HttpError(404, 'not_found', `no sweep has the id "${id}"`, 'id');
    res.json(sweep);
  });

  router.get('/sweeps/:id/timeline', async (req, res) => {
    const { limit } = parseTimelineQuery(req.query);
    const id = parseSweepId(req.params.id);
    const timeline = await timelines.read(id, { limit });
    if (!timeline) throw new HttpError(404, 'not_found', `no sweep has the id "${id}"`, 'id');
    res.json(timeline);
  });

  router.post('/sweeps', async (req, res) => {
    parseEmptyQuery(req.query);
    const request = parseSweepRequest(req.body);
    const submission = await client.submit(
      request.ns,
      request.targetSeconds === undefined ? {} : { targetSeconds: request.targetSeconds },
    );
    feed.refresh().catch(() => undefined);
    res.status(201).json(submission);
  });

  /** A control on one existing sweep: no query, no body; the live feed refreshed after it. */
  const sweepControl = (name: 'cancel' | 'retry', control: (id: string) => Promise<object>) =>
    router.post(`/sweeps/:id/${name}`, async (req, res) => {
      parseEmptyQuery(req.query);
      parseEmptyBody(req.body);
      const answer = await control(await existing(reader, req.params.id));
      feed.refresh().catch(() => undefined);
      res.json(answer);
    });
  const timeout = { timeoutMs: deps.removeTimeoutMs };
  sweepControl('cancel', async (id) => ({ id, ...(await client.cancel(id, timeout)) }));
  sweepControl('retry', (id) => client.retry(id, timeout));

  router.get('/results', async (req, res) => {
    const query = parseResultsQuery(req.query);
    const ns = query.ns ?? (await storedSizes(client));
    const results = await client.results(ns);
    if (query.format === 'csv') {
      res.type('text/csv; charset=utf-8');
      if (query.download) res.attachment('weak-queens-results.csv');
      res.send(resultsCsv(results));
      return;
    }
    if (query.download) res.attachment('weak-queens-results.json');
    // The same objects as `wq results --json`: counts as decimal strings, null where missing.
    res.type('application/json').send(`[${results.map(resultsJsonLine).join(',')}]`);
  });

  /** The classic problem's results: `{"n":16,"Q":"…","unique":"…","units":…,"checked":…}` per n. */
  router.get('/results/classic', async (req, res) => {
    parseEmptyQuery(req.query);
    const results = await client.classicResults();
    res.json({
      results: [...results.values()].map((r) => ({
        n: r.n,
        Q: r.Q,
        unique: r.unique,
        units: r.units,
        checked: r.checked,
        seconds: r.seconds,
        completedAt: r.completedAt,
      })),
    });
  });

  router.get('/workers', async (req, res) => {
    parseEmptyQuery(req.query);
    res.json({ workers: (await feed.latest()).workers });
  });

  /** How this request is authenticated (the page shows "Log out" for a cookie session). */
  router.get('/session', (req, res) => {
    parseEmptyQuery(req.query);
    res.json({ auth: String(res.locals.auth ?? 'none') });
  });

  router.get('/events', (req, res, next) => {
    parseEmptyQuery(req.query);
    // A token or a login session makes an operator, whom no anonymous page can evict.
    const operator = res.locals.auth === 'bearer' || res.locals.auth === 'cookie';
    if (!feed.add(res, { operator })) {
      next(new HttpError(503, 'busy', 'too many open dashboards; try later'));
    }
  });

  router.use((req, _res, next) => {
    next(new HttpError(404, 'not_found', `no API route ${req.method} ${req.path}`));
  });
  return router;
}

/** Every n with S(n) or some N(n, D) stored. */
async function storedSizes(client: PipelineClient): Promise<number[]> {
  const all = Array.from({ length: MAX_N }, (_, i) => i + 1);
  const results = await client.results(all);
  return results
    .filter((r) => r.S !== undefined || r.N.some((v) => v !== undefined))
    .map((r) => r.n);
}

async function existing(reader: SnapshotReader, text: unknown): Promise<string> {
  const id = parseSweepId(text);
  if (!(await reader.exists(id))) {
    throw new HttpError(404, 'not_found', `no sweep has the id "${id}"`, 'id');
  }
  return id;
}
