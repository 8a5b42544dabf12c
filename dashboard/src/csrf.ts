// Cross-site request forgery and DNS rebinding. A state-changing request must come from this
// origin (Origin / Sec-Fetch-Site), and unless it carries the bearer token (which a browser
// never adds on its own) it must echo the `wq_csrf` cookie in an X-CSRF-Token header, which
// another site can neither read nor set. Without a token the server listens on loopback only,
// and a Host header naming anything else (a rebinding attack) is refused.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { cookieLine, cookies } from './auth.js';
import { isLoopback } from './dashboard-options.js';
import { HttpError } from './http-error.js';

export const CSRF_COOKIE = 'wq_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** False when the request names an Origin other than this server's. */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `${req.protocol}://${req.headers.host ?? ''}`;
}

/** Sets the double-submit cookie on a page response when the browser has none yet. */
export function issueCsrfCookie(req: Request, res: Response): void {
  if (/^[0-9a-f]{64}$/.test(cookies(req)[CSRF_COOKIE] ?? '')) return;
  res.append(
    'Set-Cookie',
    cookieLine(CSRF_COOKIE, randomBytes(32).toString('hex'), {
      httpOnly: false,
      secure: req.secure,
    }),
  );
}

/** Refuses Host headers that are not this machine when the dashboard runs without a token. */
export function loopbackHostOnly(req: Request, _res: Response, next: NextFunction): void {
  const host = hostName(req.headers.host ?? '');
  if (isLoopback(host)) {
    next();
    return;
  }
  next(
    new HttpError(
      421,
      'wrong_host',
      'without DASHBOARD_TOKEN the dashboard answers only to localhost / 127.0.0.1',
    ),
  );
}

/**
 * Middleware for every request: safe methods pass; others need a same-origin Origin and, for
 * cookie or token-less sessions, the double-submit header. Paths in `originOnly` (bull-board's
 * own API, which cannot send our header) need the same-origin check only.
 */
export function csrfGuard(options: { originOnly: readonly string[] }) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE.has(req.method)) {
      next();
      return;
    }
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      next(new HttpError(403, 'csrf', `cross-site request refused (Sec-Fetch-Site: ${site})`));
      return;
    }
    const origin = req.headers.origin;
    if (!sameOrigin(req)) {
      next(new HttpError(403, 'csrf', 'cross-origin request refused (Origin does not match)'));
      return;
    }
    if (res.locals.auth === 'bearer') {
      next();
      return;
    }
    if (options.originOnly.some((p) => req.path.startsWith(p))) {
      if (origin === undefined) {
        next(new HttpError(403, 'csrf', 'request refused: no Origin header'));
      } else {
        next();
      }
      return;
    }
    const cookie = cookies(req)[CSRF_COOKIE] ?? '';
    const header = req.headers[CSRF_HEADER];
    if (typeof header !== 'string' || cookie === '' || !same(header, cookie)) {
      next(
        new HttpError(
          403,
          'csrf',
          `request refused: the ${CSRF_HEADER} header must repeat the ${CSRF_COOKIE} cookie ` +
            '(or send Authorization: Bearer <DASHBOARD_TOKEN>)',
        ),
      );
      return;
    }
    next();
  };
}

function same(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** `127.0.0.1:3000` → `127.0.0.1`; `[::1]:3000` → `::1`. */
function hostName(host: string): string {
  const v6 = /^\[([^\]]+)\]/.exec(host);
  if (v6?.[1] !== undefined) return v6[1];
  return host.replace(/:\d+$/, '');
}
