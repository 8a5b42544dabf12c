// `npm start` with a small sweep: private Redis, worker processes, results, clean exit.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_S } from '@weak-queens/shared/contracts';
import { until } from './src/index.js';

// S(1..10), from the shared list of published values.
const S = KNOWN_S.slice(0, 10);

describe('when npm start runs a small sweep', () => {
  it('exits 0 with the exact results and leaves its data under ./.data', async () => {
    const producerDist = dirname(createRequire(import.meta.url).resolve('@weak-queens/producer'));
    const cwd = mkdtempSync(join(tmpdir(), 'wq-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    delete env.REDIS_URL; // the embedded mode starts its own redis-server
    try {
      const child = spawn(
        process.execPath,
        [join(producerDist, 'start.js'), '--small', '--json', '--workers', '2'],
        { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      expect(code, stderr).toBe(0);
      const lines = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { n: number; S: string; N: string[] });
      expect(lines.map((l) => l.S)).toEqual(S);
      expect(lines[3]?.N).toEqual(['256', '16', '2', '2']);
      expect(existsSync(join(cwd, '.data', 'redis'))).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('when npm start gets SIGHUP mid-sweep', () => {
  it('stops everything like on SIGTERM and exits with 130', async () => {
    const producerDist = dirname(createRequire(import.meta.url).resolve('@weak-queens/producer'));
    const cwd = mkdtempSync(join(tmpdir(), 'wq-start-hup-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'info',
      WQ_SHUTDOWN_GRACE_MS: '500',
    };
    delete env.REDIS_URL;
    try {
      const child = spawn(
        process.execPath,
        [join(producerDist, 'start.js'), '--n', '15', '--workers', '1'],
        {
          cwd,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      await until('the sweep to be submitted', () => stderr.includes('sweep submitted'), 30_000);
      const sent = Date.now();
      child.kill('SIGHUP');
      expect(await exited, stderr).toBe(130);
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(stderr).toContain('"signal":"SIGHUP"');
      expect(stderr).toContain('embedded pipeline stopped');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
