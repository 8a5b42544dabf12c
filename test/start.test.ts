// `npm start` with a small sweep: private Redis, worker processes, results, clean exit.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_S } from '@weak-queens/shared/contracts';
import { until } from './src/index.js';
import { npmStartScript, runNpmStart } from './src/wq-cli.js';

// S(1..10), from the shared list of published values.
const S = KNOWN_S.slice(0, 10);

describe('when npm start runs a small sweep', () => {
  it('exits 0 with the exact results and leaves its data under ./.data', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'wq-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    delete env.REDIS_URL; // the embedded mode starts its own redis-server
    try {
      const { code, stdout, stderr } = await runNpmStart(['--small', '--json', '--workers', '2'], {
        cwd,
        env,
      });
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

describe('when npm start is asked for help or given a bad flag', () => {
  const start = (args: string[]) => runNpmStart(args, { env: process.env });

  it('prints the help generated from its definition and exits 0', async () => {
    const run = await start(['--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[0]).toBe(
      'Usage: npm start -- [--n <ns>] [--small] [--workers <k>] [--json] [--exit]',
    );
  });

  it.each([
    [
      ['--workers', '0'],
      'npm start: --workers: "0" is not allowed; expected an integer from 1 to 256',
    ],
    [['14'], 'npm start: argument: "14" is not allowed; expected no arguments, only options'],
    [
      ['--bogus'],
      'npm start: option: "--bogus" is not allowed; expected one of --n <value>, --small, --workers <value>, --json, --exit, --help',
    ],
  ])('refuses %j with one line and exit code 2, before starting anything', async (args, line) => {
    expect(await start(args)).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});

describe('when npm start runs with --exit', () => {
  it('exits 0 once the sweep is done, with the exact results', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'wq-start-exit-'));
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    delete env.REDIS_URL;
    try {
      const { code, stdout, stderr } = await runNpmStart(
        ['--n', '4-5', '--exit', '--workers', '1'],
        { cwd, env },
      );
      expect(code, stderr).toBe(0);
      // N(5, D) by brute force over the 5^5 boards, independent of the kernel.
      expect(stdout).toBe(
        [
          'n = 4',
          '   D  N(4, D)',
          '   0      256',
          '   1       16',
          '   2        2',
          '   3        2',
          `S(4)  ${KNOWN_S[3]?.padStart(7)}`,
          '',
          'n = 5',
          '   D  N(5, D)',
          '   0     3125',
          '   1      184',
          '   2       18',
          '   3       10',
          '   4       10',
          `S(5)  ${KNOWN_S[4]?.padStart(7)}`,
          '',
        ].join('\n'),
      );
      expect(stderr).not.toContain('Ctrl-C to stop');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('when npm start runs on a terminal', () => {
  // `script` (util-linux) gives the run a pseudo-terminal, as a person at the keyboard has.
  it.skipIf(!existsSync('/usr/bin/script') && !process.env.CI)(
    'leaves the dashboard up after the sweep, says so, and exits 0 when stopped',
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'wq-start-tty-'));
      const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', DASHBOARD_PORT: '0' };
      delete env.REDIS_URL;
      try {
        const command = `echo "pid $$"; exec '${process.execPath}' '${npmStartScript()}' --n 4 --workers 1 --json`;
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          cwd,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise<number | null>((r) => child.once('exit', r));
        await until('the dashboard line', () => out.includes('Ctrl-C to stop'), 60_000);
        expect(out).toContain('{"n":4,"S":"276","N":["256","16","2","2"]}');
        expect(out).toMatch(
          /dashboard at http:\/\/127\.0\.0\.1:\d+\/?; workers idle, ready for sweeps from its form; Ctrl-C to stop/,
        );
        // Still up a second later: it waits for the person, not for the sweep.
        await new Promise((r) => setTimeout(r, 1000));
        expect(child.exitCode).toBe(null);
        const pid = Number(/pid (\d+)/.exec(out)?.[1]);
        process.kill(pid, 'SIGINT');
        expect(await exited, out).toBe(0);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
  );
});

describe('when npm start gets SIGHUP mid-sweep', () => {
  it('stops everything like on SIGTERM and exits with 130', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'wq-start-hup-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'info',
      WQ_SHUTDOWN_GRACE_MS: '500',
    };
    delete env.REDIS_URL;
    try {
      const child = spawn(process.execPath, [npmStartScript(), '--n', '15', '--workers', '1'], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
