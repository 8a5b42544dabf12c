// What the dashboard tests share: a private redis-server per file (never the machine's 6379),
// a dashboard on a free port, and a plain HTTP client that shows every header.
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { RedisServer } from '@weak-queens/shared/process';
import { compileConfig, type WqConfig } from '@weak-queens/shared/contracts';
import { createLogger } from '@weak-queens/shared/client';
import {
  createDashboardServer,
  type DashboardOptions,
  type DashboardServer,
} from '../src/index.js';

export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  return RedisServer.start({ appendOnly: false });
}

export interface RedisFixture {
  /** The file's Redis URL (once beforeAll has run). */
  readonly url: string;
  /** A config for that Redis on a key prefix no other test uses. */
  config(label?: string): WqConfig;
}

/** Registers the hooks that start the file's Redis before its tests and stop it after. */
export function redisFixture(): RedisFixture {
  let redis: TestRedis | undefined;
  const fixture = {
    url: '',
    config: (label?: string) => testConfig(fixture.url, uniquePrefix(label)),
  };
  beforeAll(async () => {
    redis = await startRedis();
    fixture.url = redis.url;
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return fixture;
}

/** A key prefix no other test uses, as a cluster hash tag like production's `{wq}`. */
export function uniquePrefix(label = 'dash'): string {
  return `{${label}-${randomUUID().slice(0, 8)}}`;
}

export const silent = createLogger({ level: 'silent', pretty: false });

function testConfig(url: string, prefix: string): WqConfig {
  return compileConfig({ REDIS_URL: url, WQ_PREFIX: prefix });
}

export async function startDashboard(
  config: WqConfig,
  options: {
    token?: string;
    host?: string;
    pollMs?: number;
    liveFeed?: DashboardOptions['liveFeed'];
  } = {},
): Promise<{ server: DashboardServer; base: string }> {
  const server = createDashboardServer({
    config,
    logger: silent,
    port: 0,
    pollMs: options.pollMs ?? 200,
    ...(options.liveFeed === undefined ? {} : { liveFeed: options.liveFeed }),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  const url = await server.listen();
  const port = new URL(url).port;
  return { server, base: `http://127.0.0.1:${port}` };
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json<T = unknown>(): T;
}

/** One HTTP request with exactly the headers given (Host and Origin included). */
export function http(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Headers of a same-origin page request with the double-submit pair. */
export function csrfHeaders(
  base: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Cookie: 'wq_csrf=' + 'ab'.repeat(32),
    'X-CSRF-Token': 'ab'.repeat(32),
    Origin: base,
    ...extra,
  };
}

export function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = csrfHeaders(base),
) {
  return http(base, path, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A stack trace or a source path must never reach a client. */
export const STACK = /\bat \S+ \(|\.ts:\d+|\.js:\d+|node_modules/;
