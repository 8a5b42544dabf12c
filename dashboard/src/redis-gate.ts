// Routes that read Redis answer 503 at once while the dashboard's connection is down, and a
// read that Redis leaves hanging (BullMQ waits for its connection forever) gets a 503 after a
// deadline, so no request of the page, the API or bull-board waits without end.
import type { RequestHandler } from 'express';
import type { RedisClient } from '@weak-queens/shared/client';
import { HttpError } from './http-error.js';

/** How long a read may wait for Redis before it is answered with 503. */
const READ_DEADLINE_MS = 5_000;

export function redisUnavailable(detail = 'Redis cannot be reached right now'): HttpError {
  return new HttpError(503, 'redis_unavailable', detail);
}

export function redisGate(
  redis: RedisClient,
  options: { deadlineMs?: number; exempt?: readonly string[] } = {},
): RequestHandler {
  const deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  const exempt = new Set(options.exempt ?? []);
  // Down from a lost or refused connection until ioredis is ready again. Not while the first
  // connection is still being made: a request then waits for it (under the deadline).
  let down = false;
  redis.on('close', () => (down = true));
  redis.on('error', () => (down = redis.status !== 'ready'));
  redis.on('ready', () => (down = false));
  return (req, res, next) => {
    if (exempt.has(req.originalUrl.split('?')[0] ?? '')) {
      next();
      return;
    }
    if (down) {
      next(redisUnavailable());
      return;
    }
    // Only reads get a deadline: a sweep being submitted must not be reported as failed while
    // it goes on. A live stream sends its headers at once, so the deadline never touches it.
    if (req.method === 'GET' || req.method === 'HEAD') {
      const timer = setTimeout(() => {
        if (res.headersSent) return;
        const error = redisUnavailable(`Redis did not answer within ${deadlineMs / 1000} s`);
        res.status(error.status).json(error.toBody());
      }, deadlineMs);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
    }
    next();
  };
}
