// The token rule: with DASHBOARD_TOKEN set, every request needs it, either as
// `Authorization: Bearer <token>` (scripts, Prometheus) or as the session cookie the login form
// sets (browsers). The cookie holds an HMAC of the token, never the token itself.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './http-error.js';

export const SESSION_COOKIE = 'wq_session';

/** How a request proved who it is; `none` when no token is configured. */
export type AuthMethod = 'none' | 'bearer' | 'cookie';

export class TokenAuth {
  private readonly session: string | undefined;

  constructor(private readonly token: string | undefined) {
    this.session =
      token === undefined
        ? undefined
        : createHmac('sha256', token).update('wq-dashboard-session').digest('hex');
  }

  get enabled(): boolean {
    return this.token !== undefined;
  }

  /** The method that authenticated the request, or undefined when it is not authenticated. */
  check(req: Request): AuthMethod | undefined {
    if (this.token === undefined) return 'none';
    const header = req.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer ([\x21-\x7e]+)$/.exec(header);
      return match?.[1] !== undefined && same(match[1], this.token) ? 'bearer' : undefined;
    }
    const cookie = cookies(req)[SESSION_COOKIE];
    return cookie !== undefined && this.session !== undefined && same(cookie, this.session)
      ? 'cookie'
      : undefined;
  }

  /** True when `candidate` is the token (constant time). */
  matches(candidate: string): boolean {
    return this.token !== undefined && same(candidate, this.token);
  }

  /** The Set-Cookie value of a logged-in browser. */
  sessionCookie(secure: boolean): string {
    return cookieLine(SESSION_COOKIE, this.session ?? '', { httpOnly: true, secure });
  }

  clearCookie(secure: boolean): string {
    return cookieLine(SESSION_COOKIE, '', { httpOnly: true, secure, maxAge: 0 });
  }

  /**
   * Middleware: lets authenticated requests through and records how (res.locals.auth); a page
   * request without credentials goes to the login form, anything else gets 401 JSON.
   */
  gate() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const method = this.check(req);
      if (method !== undefined) {
        res.locals.auth = method;
        next();
        return;
      }
      if (req.method === 'GET' && (req.path === '/' || req.path === '/index.html')) {
        res.redirect(303, '/login');
        return;
      }
      res.setHeader('WWW-Authenticate', 'Bearer realm="wq dashboard"');
      next(
        new HttpError(
          401,
          'unauthorized',
          'this dashboard needs its token: Authorization: Bearer <DASHBOARD_TOKEN>, or log in at /login',
        ),
      );
    };
  }
}

function same(a: string, b: string): boolean {
  // Hash both sides so the comparison takes the same time whatever the lengths.
  const ha = createHmac('sha256', 'cmp').update(a).digest();
  const hb = createHmac('sha256', 'cmp').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** The request's cookies (no dependency: the header is `a=b; c=d`). */
export function cookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name && !(name in out)) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        out[name] = value;
      }
    }
  }
  return out;
}

export function cookieLine(
  name: string,
  value: string,
  options: { httpOnly: boolean; secure: boolean; maxAge?: number },
): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    'SameSite=Strict',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
    ...(options.maxAge === undefined ? [] : [`Max-Age=${options.maxAge}`]),
  ].join('; ');
}
