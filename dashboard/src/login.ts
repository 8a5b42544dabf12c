// The login form for browsers when DASHBOARD_TOKEN is set: POST /login checks the token and sets
// the HttpOnly, SameSite=Strict session cookie; POST /logout clears it. Failed attempts are
// limited per client address, so the token cannot be guessed through the form.
import express, { type Request, type Response, Router } from 'express';
import type { TokenAuth } from './auth.js';
import { sameOrigin } from './csrf.js';
import { HttpError } from './http-error.js';
import { LOGIN_FILE, readPage } from './static-files.js';

const WINDOW_MS = 60_000;
const MAX_FAILURES = 10;

export function loginRouter(auth: TokenAuth): Router {
  const router = Router();
  const failures = new Map<string, { count: number; since: number }>();

  const page = (res: Response, status: number, message: string): void => {
    const html = readPage(LOGIN_FILE).replace(
      '<p class="login-error" hidden></p>',
      message ? `<p class="login-error">${message}</p>` : '<p class="login-error" hidden></p>',
    );
    res.status(status).type('html').send(html);
  };

  router.get('/login', (_req, res) => {
    if (!auth.enabled) {
      res.redirect(303, '/');
      return;
    }
    page(res, 200, '');
  });

  router.post(
    '/login',
    express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }),
    (req: Request, res: Response) => {
      if (!auth.enabled) {
        res.redirect(303, '/');
        return;
      }
      // Login CSRF: the form must be posted from this origin.
      if (!sameOrigin(req)) throw new HttpError(403, 'csrf', 'cross-origin login refused');
      const client = req.socket.remoteAddress ?? '?';
      const now = Date.now();
      const record = failures.get(client);
      if (record && now - record.since < WINDOW_MS && record.count >= MAX_FAILURES) {
        page(res, 429, 'Too many wrong tokens: wait a minute and try again.');
        return;
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof body.token === 'string' ? body.token : '';
      if (!auth.matches(token)) {
        const fresh = !record || now - record.since >= WINDOW_MS;
        failures.set(client, {
          count: fresh ? 1 : record.count + 1,
          since: fresh ? now : record.since,
        });
        page(res, 401, 'That is not the dashboard token.');
        return;
      }
      failures.delete(client);
      res.append('Set-Cookie', auth.sessionCookie(req.secure));
      res.redirect(303, '/');
    },
  );

  router.post('/logout', (req, res) => {
    if (!sameOrigin(req)) throw new HttpError(403, 'csrf', 'cross-origin logout refused');
    res.append('Set-Cookie', auth.clearCookie(req.secure));
    res.redirect(303, auth.enabled ? '/login' : '/');
  });
  return router;
}
