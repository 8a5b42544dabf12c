// The token rules, the bind rule, CSRF and the login form, against a real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileDashboardOptions,
  type DashboardServer,
  isLoopback,
  MIN_TOKEN_LENGTH,
} from '../src/index.js';
import { csrfHeaders, http, post, silent, STACK, startDashboard, redisFixture } from './helpers.js';

const TOKEN = 'test-token-0123456789abcdef';

const redis = redisFixture();

describe('when the dashboard chooses where to listen', () => {
  const config = () => redis.config();

  it('binds 127.0.0.1 on port 3000 by default', () => {
    const options = compileDashboardOptions({ config: config(), logger: silent });
    expect(options.host).toBe('127.0.0.1');
    expect(options.port).toBe(3000);
    expect(options.token).toBeUndefined();
  });

  it('refuses any address but loopback without DASHBOARD_TOKEN', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
      expect(() => compileDashboardOptions({ config: config(), logger: silent, host })).toThrow(
        /host: ".*" is not allowed; expected a loopback address such as 127\.0\.0\.1, unless DASHBOARD_TOKEN is set/,
      );
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      expect(isLoopback(host)).toBe(true);
    }
  });

  it('binds anywhere with a token, and refuses a short one without echoing it', () => {
    const options = compileDashboardOptions({
      config: config(),
      logger: silent,
      host: '0.0.0.0',
      token: TOKEN,
    });
    expect(options.host).toBe('0.0.0.0');
    const short = 'x'.repeat(MIN_TOKEN_LENGTH - 1);
    let message = '';
    try {
      compileDashboardOptions({ config: config(), logger: silent, host: '0.0.0.0', token: short });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^DASHBOARD_TOKEN: .* at least 16 printable characters/);
    expect(message).not.toContain(short);
  });

  it('refuses a port out of range', () => {
    expect(() =>
      compileDashboardOptions({ config: config(), logger: silent, port: 70000 }),
    ).toThrow(/port: 70000 is not allowed; expected an integer from 0 to 65535/);
  });

  it('serves on every interface with a token', async () => {
    const { server, base } = await startDashboard(config(), { host: '0.0.0.0', token: TOKEN });
    try {
      expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/$/);
      const res = await http(base, '/api/sweeps', {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('when a token is configured', () => {
  let dashboard: DashboardServer;
  let base: string;
  const bearer = { Authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    ({ server: dashboard, base } = await startDashboard(redis.config(), {
      token: TOKEN,
    }));
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  async function login(): Promise<string> {
    const res = await http(base, '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(res.status).toBe(303);
    const cookie = String(res.headers['set-cookie']?.[0]);
    return cookie.split(';')[0]!;
  }

  it('answers 401 JSON to every API, metrics and bull-board request without it', async () => {
    for (const path of [
      '/api/sweeps',
      '/api/sweeps/s-x',
      '/api/results',
      '/api/workers',
      '/api/events',
      '/metrics',
      '/queues/',
      '/queues/api/queues',
      '/app.js',
    ]) {
      const res = await http(base, path);
      expect(res.status, path).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="wq dashboard"');
      expect(res.json<{ error: { code: string } }>().error.code).toBe('unauthorized');
      expect(res.text).not.toMatch(STACK);
    }
    const start = await post(base, '/api/sweeps', { ns: '3' });
    expect(start.status).toBe(401);
  });

  it('sends a browser without it to the login form', async () => {
    const res = await http(base, '/');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login');
    const form = await http(base, '/login');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post" action="/login">');
    expect(form.text).not.toMatch(/<script/);
    expect((await http(base, '/style.css')).status).toBe(200);
    expect((await http(base, '/healthz')).text).toBe('ok\n');
  });

  it('refuses a wrong token, in the header or in the form', async () => {
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Basic abc']) {
      const res = await http(base, '/api/sweeps', { headers: { Authorization: header } });
      expect(res.status).toBe(401);
    }
    const res = await http(base, '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
      body: 'token=wrong-token-wrong-token',
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain('That is not the dashboard token.');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('accepts the token as a bearer header, with no caching of what it returns', async () => {
    for (const path of ['/api/sweeps', '/api/results', '/api/workers', '/metrics', '/']) {
      const res = await http(base, path, { headers: bearer });
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('logs a browser in with an HttpOnly SameSite=Strict cookie that is not the token', async () => {
    const res = await http(base, '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = String(res.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/^wq_session=[0-9a-f]{64}; Path=\/; SameSite=Strict; HttpOnly$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    const page = await http(base, '/', { headers: { Cookie: session } });
    expect(page.status).toBe(200);
    const api = await http(base, '/api/session', { headers: { Cookie: session } });
    expect(api.json()).toEqual({ auth: 'cookie' });
    expect((await http(base, '/api/session', { headers: bearer })).json()).toEqual({
      auth: 'bearer',
    });
  });

  it('refuses a login posted from another origin', async () => {
    const res = await http(base, '/login', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://attacker.example',
      },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('protects state changes of a cookie session against CSRF', async () => {
    const session = await login();
    const good = csrfHeaders(base, { Cookie: `${session}; wq_csrf=${'ab'.repeat(32)}` });
    const cases: [string, Record<string, string>][] = [
      ['no CSRF header', { ...good, 'X-CSRF-Token': '' }],
      ['a CSRF header that differs from the cookie', { ...good, 'X-CSRF-Token': 'cd'.repeat(32) }],
      ['no CSRF cookie', { ...good, Cookie: session }],
      ['a foreign Origin', { ...good, Origin: 'https://attacker.example' }],
      ['a cross-site fetch', { ...good, 'Sec-Fetch-Site': 'cross-site' }],
    ];
    for (const [what, headers] of cases) {
      const res = await post(base, '/api/sweeps', { ns: '3' }, headers);
      expect(res.status, what).toBe(403);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('csrf');
    }
    // With the pair and this origin the request reaches validation.
    const res = await post(base, '/api/sweeps', { ns: '0' }, good);
    expect(res.status).toBe(400);
    expect(res.json<{ error: { field: string } }>().error.field).toBe('ns');
  });

  it('needs no CSRF pair with the bearer header, which browsers never add by themselves', async () => {
    const res = await post(
      base,
      '/api/sweeps',
      { ns: '0' },
      {
        ...bearer,
        'Content-Type': 'application/json',
      },
    );
    expect(res.status).toBe(400);
    const foreign = await post(
      base,
      '/api/sweeps',
      { ns: '0' },
      {
        ...bearer,
        'Content-Type': 'application/json',
        Origin: 'https://attacker.example',
      },
    );
    expect(foreign.status).toBe(403);
  });

  it('lets bull-board change jobs with the token, from this origin only', async () => {
    const queues = await http(base, '/queues/api/queues', { headers: bearer });
    const list = queues.json<{ queues: { readOnlyMode: boolean }[] }>().queues;
    expect(list.every((q) => !q.readOnlyMode)).toBe(true);
    const session = await login();
    const foreign = await http(base, '/queues/api/queues/count/pause', {
      method: 'PUT',
      headers: { Cookie: session, Origin: 'https://attacker.example' },
    });
    expect(foreign.status).toBe(403);
    const noOrigin = await http(base, '/queues/api/queues/count/pause', {
      method: 'PUT',
      headers: { Cookie: session },
    });
    expect(noOrigin.status).toBe(403);
  });

  it('logs out by clearing the cookie', async () => {
    const session = await login();
    const res = await http(base, '/logout', {
      method: 'POST',
      headers: { Cookie: session, Origin: base },
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(String(res.headers['set-cookie']?.[0])).toMatch(/^wq_session=; .*Max-Age=0/);
  });

  it('answers any Host header (it may sit behind a proxy) but still needs the token', async () => {
    const res = await http(base, '/api/sweeps', {
      headers: { Host: 'dashboard.example', ...bearer },
    });
    expect(res.status).toBe(200);
  });

  it('stops answering the login form after ten wrong tokens from one address', async () => {
    const attempt = (token: string) =>
      http(base, '/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
        body: `token=${encodeURIComponent(token)}`,
      });
    for (let i = 0; i < 10; i++) expect((await attempt(`guess-${i}-padding-pad`)).status).toBe(401);
    expect((await attempt(TOKEN)).status).toBe(429);
  });
});
