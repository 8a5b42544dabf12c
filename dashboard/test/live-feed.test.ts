// The live feed under pages that do not read: a stalled stream is cut and its slot freed, a full
// feed makes room for a newcomer instead of answering 503, and an unchanged snapshot is not sent
// again. Streams that stall are raw sockets that send the request and never read.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveFeed } from '../src/live-feed.js';
import { compileDashboardOptions, type DashboardServer, type Snapshot } from '../src/index.js';
import {
  csrfHeaders,
  eventually,
  http,
  post,
  redisFixture,
  silent,
  startDashboard,
} from './helpers.js';

const redis = redisFixture();
const TOKEN = 'feed-test-token-0123456789';

/** A client that sends the request and never reads: what arrives stays in the kernel. */
function stalledClient(
  base: string,
  headers: Record<string, string> = {},
): { socket: Socket; wasCut: () => Promise<void> } {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = [`GET /api/events HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  socket.pause();
  return {
    socket,
    // A socket that does not read does not see the server close it either: read to find out.
    wasCut: () => {
      socket.resume();
      return closed;
    },
  };
}

/** A page that reads its stream: every event and keep-alive comment, as they come. */
async function openPage(base: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers, signal: controller.signal });
  const page = {
    status: res.status,
    snapshots: [] as Snapshot[],
    comments: 0,
    close(): void {
      controller.abort();
    },
  };
  if (!res.ok || !res.body) return page;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
      if (done) return;
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        if (block.startsWith(':')) page.comments += 1;
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: snapshot$/m.test(block) && data)
          page.snapshots.push(JSON.parse(data) as Snapshot);
      }
    }
  })();
  return page;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('when the live feed is configured', () => {
  it('holds 100 streams, cuts one after 5 s without a drain, keeps quiet ones alive at 15 s', () => {
    const options = compileDashboardOptions({ config: redis.config(), logger: silent });
    expect(options.liveFeed).toEqual({ maxClients: 100, drainTimeoutMs: 5000, keepAliveMs: 15000 });
  });

  it('refuses a limit that is not a positive integer, naming it', () => {
    expect(() =>
      compileDashboardOptions({
        config: redis.config(),
        logger: silent,
        liveFeed: { maxClients: 0 },
      }),
    ).toThrow(/liveFeed\.maxClients: .*0.* is not allowed; expected an integer from 1 to 100000/);
  });
});

describe('when nothing changes', () => {
  let dashboard: DashboardServer | undefined;
  afterEach(async () => {
    await dashboard?.close();
  });

  it('sends the snapshot once, keep-alive comments after, and again once it changes', async () => {
    let base: string;
    ({ server: dashboard, base } = await startDashboard(redis.config(), {
      pollMs: 100,
      liveFeed: { keepAliveMs: 300 },
    }));
    const page = await openPage(base);
    try {
      expect(page.status).toBe(200);
      await eventually(() => (page.snapshots.length === 1 ? true : undefined));
      const reads = dashboard.feed.reads;
      await sleep(1500);
      // Fifteen polls read Redis; none found a change, so none was sent.
      expect(dashboard.feed.reads - reads).toBeGreaterThanOrEqual(5);
      expect(page.snapshots).toHaveLength(1);
      expect(dashboard.feed.snapshotsSent).toBe(1);
      expect(page.comments).toBeGreaterThanOrEqual(2);
      expect(page.snapshots[0]!.sweeps).toEqual([]);

      const res = await post(base, '/api/sweeps', { ns: '5' }, csrfHeaders(base));
      expect(res.status, res.text).toBe(201);
      const id = res.json<{ sweep: { id: string } }>().sweep.id;
      const changed = await eventually(() => page.snapshots.find((s) => s.sweeps.length > 0));
      expect(changed.sweeps.map((s) => s.id)).toEqual([id]);
    } finally {
      page.close();
    }
  });
});

describe('when every slot is held by a stream that does not read', () => {
  let dashboard: DashboardServer | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await dashboard?.close();
  });

  it('gives a new page a snapshot at once, evicting the oldest stalled stream', async () => {
    let base: string;
    ({ server: dashboard, base } = await startDashboard(redis.config(), {
      liveFeed: { maxClients: 3 },
    }));
    const feed = dashboard.feed;
    const stalled: ReturnType<typeof stalledClient>[] = [];
    for (let i = 1; i <= 3; i++) {
      stalled.push(stalledClient(base));
      sockets.push(stalled.at(-1)!.socket);
      await eventually(() => (feed.clientCount === i ? true : undefined));
    }

    const page = await openPage(base);
    try {
      expect(page.status).toBe(200);
      const [snapshot] = await eventually(() =>
        page.snapshots.length ? page.snapshots : undefined,
      );
      expect(snapshot!.sweeps).toEqual([]);
      expect(feed.clientCount).toBe(3);
      expect(feed.dropped).toEqual({ stalled: 0, evicted: 1 });
      await stalled[0]!.wasCut();
      // The page itself is served as usual.
      expect((await http(base, '/')).status).toBe(200);
    } finally {
      page.close();
    }
  });

  it('lets a logged-in operator in when the slots are all taken by token holders', async () => {
    let base: string;
    ({ server: dashboard, base } = await startDashboard(redis.config(), {
      token: TOKEN,
      liveFeed: { maxClients: 2 },
    }));
    const bearer = { Authorization: `Bearer ${TOKEN}` };
    sockets.push(...[0, 1].map(() => stalledClient(base, bearer).socket));
    await eventually(() => (dashboard!.feed.clientCount === 2 ? true : undefined));
    const login = await http(base, '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    const session = String(login.headers['set-cookie']?.[0]).split(';')[0]!;
    const page = await openPage(base, { Cookie: session });
    try {
      expect(page.status).toBe(200);
      await eventually(() => (page.snapshots.length === 1 ? true : undefined));
      expect(dashboard.feed.dropped).toEqual({ stalled: 0, evicted: 1 });
    } finally {
      page.close();
    }
  });
});

/** The feed alone on a plain HTTP server, fed a large snapshot that changes at every read. */
async function feedServer(options: { maxClients: number; drainTimeoutMs: number }) {
  let version = 0;
  // About 200 kB of JSON: a stalled peer's kernel buffers fill within a second or two.
  const queues = Object.fromEntries(
    Array.from({ length: 8000 }, (_, i) => [`queue-${i}`, { waiting: i }]),
  );
  const feed = new LiveFeed({
    read: (): Promise<Snapshot> =>
      Promise.resolve({
        generatedAt: new Date().toISOString(),
        sweeps: [],
        workers: [],
        queues: { ...queues, version: { waiting: ++version } },
        disagreements: [],
      }),
    pollMs: 100,
    keepAliveMs: 15_000,
    logger: silent,
    ...options,
  });
  const responses: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    responses.push(res);
    if (!feed.add(res, { operator: req.headers['x-operator'] === 'yes' })) {
      res.writeHead(503).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return {
    feed,
    responses,
    base: `http://127.0.0.1:${port}`,
    async close(): Promise<void> {
      feed.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('when a page stops reading while the snapshot keeps changing', () => {
  it('cuts that stream within a few seconds while a page that reads gets every change', async () => {
    const fixture = await feedServer({ maxClients: 10, drainTimeoutMs: 1000 });
    const stalled = stalledClient(fixture.base);
    const page = await openPage(fixture.base);
    let unsent = 0;
    const sampler = setInterval(() => {
      for (const res of fixture.responses) unsent = Math.max(unsent, res.writableLength);
    }, 10);
    try {
      await eventually(() => (fixture.feed.dropped.stalled > 0 ? true : undefined), 20_000);
      clearInterval(sampler);
      // Held back in the process: never more than about the one snapshot the kernel refused.
      const snapshotBytes = JSON.stringify(page.snapshots[0]).length;
      expect(unsent).toBeLessThan(2 * snapshotBytes);
      await stalled.wasCut();
      expect(fixture.feed.dropped).toEqual({ stalled: 1, evicted: 0 });
      expect(fixture.feed.clientCount).toBe(1);
      const seen = page.snapshots.length;
      await eventually(() => (page.snapshots.length >= seen + 5 ? true : undefined), 10_000);
      const versions = page.snapshots.map((s) => s.queues.version!.waiting!);
      // Each snapshot the page got was newer than the one before.
      expect(versions.every((v, i) => i === 0 || v > versions[i - 1]!)).toBe(true);
    } finally {
      clearInterval(sampler);
      page.close();
      stalled.socket.destroy();
    }
    // Once the streams are gone, no listener or timer of theirs is left, and the loop stops.
    await eventually(() => (fixture.feed.clientCount === 0 ? true : undefined));
    for (const res of fixture.responses) expect(res.listenerCount('drain')).toBe(0);
    const reads = fixture.feed.reads;
    await sleep(300);
    expect(fixture.feed.reads - reads).toBeLessThanOrEqual(1);
    await fixture.close();
  }, 30_000);

  it('never lets an anonymous page evict an operator, but lets an operator evict one', async () => {
    const fixture = await feedServer({ maxClients: 2, drainTimeoutMs: 60_000 });
    const operator = { 'X-Operator': 'yes' };
    const held = [stalledClient(fixture.base, operator), stalledClient(fixture.base, operator)];
    try {
      await eventually(() => (fixture.feed.clientCount === 2 ? true : undefined));
      const anonymous = await openPage(fixture.base);
      expect(anonymous.status).toBe(503);
      const page = await openPage(fixture.base, operator);
      expect(page.status).toBe(200);
      await eventually(() => (page.snapshots.length > 0 ? true : undefined));
      expect(fixture.feed.dropped).toEqual({ stalled: 0, evicted: 1 });
      page.close();
    } finally {
      for (const h of held) h.socket.destroy();
      await fixture.close();
    }
  });
});
