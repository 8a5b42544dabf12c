#!/usr/bin/env node
// Samples a sweep that runs for hours on a deployment of its own, once a `--every` seconds, in
// the line format `npm run bench -- --soak --samples FILE` reads (bench/src/soak.ts: Sample):
// each worker's resident memory, Redis memory, the AOF's size and rewrites, the workers' log
// lines, and the progress `wq status` and the dashboard show. It stops once the sweep is done.
//
//   REDIS_URL=redis://127.0.0.1:6419 node scripts/soak-recorder.mjs --sweep s-… \
//     --pids 1234,5678 --logs worker.log --dashboard http://127.0.0.1:3000 --out samples.jsonl
//
// `--pids` may be given again while it runs through a file (`--pids-file`, one pid a line), so
// that a worker restarted during the run is followed.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    sweep: { type: 'string' },
    pids: { type: 'string', default: '' },
    'pids-file': { type: 'string' },
    logs: { type: 'string', default: '' },
    dashboard: { type: 'string' },
    out: { type: 'string' },
    every: { type: 'string', default: '60' },
  },
});
if (!values.sweep || !values.out) {
  console.error(
    'usage: soak-recorder.mjs --sweep <id> --out <file> [--pids p,…] [--pids-file f] [--logs f,…] [--dashboard url] [--every s]',
  );
  process.exit(2);
}
const wq = join(dirname(fileURLToPath(import.meta.url)), '..', 'producer', 'bin', 'wq.js');
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

function pids() {
  const listed = values.pids.split(',');
  if (values['pids-file']) listed.push(...readFileSync(values['pids-file'], 'utf8').split('\n'));
  return listed.map((p) => p.trim()).filter((p) => /^\d+$/.test(p));
}

function rssKiB() {
  const found = {};
  for (const pid of pids()) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      found[pid] = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return found;
}

function info(section) {
  const args = ['-h', redisUrl.hostname, '-p', redisUrl.port || '6379', 'info', section];
  const text = execFileSync('redis-cli', args, { encoding: 'utf8' });
  return Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.trim().split(':'))
      .filter((kv) => kv.length === 2),
  );
}

function logLines() {
  let lines = 0;
  for (const file of values.logs.split(',').filter(Boolean)) {
    try {
      lines += readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      // not written yet
    }
  }
  return lines;
}

async function pageEta() {
  if (!values.dashboard) return undefined;
  try {
    const res = await fetch(new URL('/api/sweeps', values.dashboard));
    const { sweeps } = await res.json();
    return sweeps.find((s) => s.id === values.sweep)?.etaSeconds ?? null;
  } catch {
    return null;
  }
}

for (;;) {
  const at = Date.now() / 1000;
  const status = JSON.parse(
    execFileSync(process.execPath, [wq, 'status', '--json'], { encoding: 'utf8' }),
  );
  const sweep = status.sweeps.find((s) => s.sweep.id === values.sweep);
  if (!sweep) {
    console.error(`sweep ${values.sweep} is not listed`);
    process.exit(1);
  }
  const memory = info('memory');
  const persistence = info('persistence');
  const page = await pageEta();
  const sample = {
    at,
    rssKiB: rssKiB(),
    usedMemory: Number(memory.used_memory),
    aofBytes: Number(persistence.aof_current_size ?? 0),
    aofRewrites: Number(persistence.aof_rewrites ?? 0),
    rewriting: persistence.aof_rewrite_in_progress === '1',
    logLines: logLines(),
    unitsDone: sweep.unitsDone,
    units: sweep.units,
    etaSeconds: sweep.etaSeconds ?? null,
    ...(page === undefined ? {} : { pageEtaSeconds: page }),
    status: sweep.status,
  };
  appendFileSync(values.out, JSON.stringify(sample) + '\n');
  if (sweep.status !== 'running') break;
  await new Promise((r) => setTimeout(r, Number(values.every) * 1000));
}
