// The image's HEALTHCHECK, one for every role: it finds the role this container runs (the
// `wq <command>` process) and checks what that role owes. The dashboard: GET /healthz answers.
// A worker: its heartbeat in Redis (this container's host name) is younger than WORKER_TTL_MS,
// so a frozen or wedged worker (one that no longer heartbeats) turns unhealthy although its
// process is still there. Anything else (the producer's one-shot sweep) is healthy while it runs.
// Exit 0 healthy, 1 unhealthy, with one line saying why.
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';

const WQ = '/app/producer/bin/wq.js';
const TIMEOUT_MS = 4000;

/** The `wq` command this container runs (`worker`, `dashboard`, `sweep`, …), from /proc. */
function role() {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = argv.indexOf(WQ);
    if (at >= 0 && argv[at + 1]) return { command: argv[at + 1], args: argv.slice(at + 2) };
  }
  return undefined;
}

async function dashboard(args) {
  const at = args.indexOf('--port');
  const port = at >= 0 ? args[at + 1] : '3000';
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`/healthz answered ${res.status}`);
  return 'dashboard answers /healthz';
}

async function worker() {
  const { compileConfig } = await import('@weak-queens/shared/contracts');
  const { createRedis, SweepRegistry, WORKER_TTL_MS } = await import('@weak-queens/shared/client');
  const config = compileConfig(process.env);
  const redis = createRedis(config, 'health');
  redis.on('error', () => {});
  try {
    const live = await Promise.race([
      new SweepRegistry(redis, config.prefix).liveWorkers(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('Redis did not answer')), TIMEOUT_MS).unref(),
      ),
    ]);
    const mine = live.find((w) => w.host === hostname());
    if (!mine) throw new Error(`no heartbeat from ${hostname()} in the last ${WORKER_TTL_MS} ms`);
    return `worker ${mine.id} heartbeat at ${mine.heartbeatAt}`;
  } finally {
    redis.disconnect();
  }
}

const found = role();
const check =
  found?.command === 'dashboard'
    ? dashboard(found.args)
    : found?.command === 'worker'
      ? worker()
      : Promise.resolve(`${found?.command ?? 'no wq command'} running`);
check.then(
  (line) => {
    console.log(line);
    process.exit(0);
  },
  (err) => {
    console.log(`unhealthy: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
