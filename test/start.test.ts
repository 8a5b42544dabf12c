// `npm start` with a small sweep: private Redis, worker processes, results, clean exit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_S } from '@weak-queens/shared/contracts';
import { spawnWatched, until } from './src/index.js';
import { npmStartScript, runNpmStart, sumsOf } from './src/wq-cli.js';

// S(1..10), from the shared list of published values.
const S = KNOWN_S.slice(0, 10);

/**
 * Runs `test` in a new directory, where an embedded `npm start` keeps its .data, with `vars` on
 * top of this process's environment and without REDIS_URL, so that it starts its own
 * redis-server; the directory is removed after.
 */
async function inNewDirectory(
  name: string,
  vars: NodeJS.ProcessEnv,
  test: (cwd: string, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), `wq-start-${name}`));
  const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
  delete env.REDIS_URL;
  try {
    await test(cwd, env);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('when npm start runs a small sweep', () => {
  it('exits 0 with the exact results and leaves its data under ./.data', () =>
    inNewDirectory('', { LOG_LEVEL: 'warn' }, async (cwd, env) => {
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
    }));
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
      ['--n', '99'],
      `npm start: --n: "99" is not allowed; expected sizes from 1 to 32 as "14", "4-12" or "4,6,10-12" (32 is the largest: a board's columns are the bits of a 32-bit integer)`,
    ],
    [
      ['--bogus'],
      'npm start: option: "--bogus" is not allowed; expected one of --n <value>, --small, --workers <value>, --json, --exit, --help',
    ],
  ])('refuses %j with one line and exit code 2, before starting anything', async (args, line) => {
    expect(await start(args)).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });
});

describe('when npm start runs with --exit', () => {
  it('exits 0 once the sweep is done, with the exact results', () =>
    inNewDirectory('exit-', { LOG_LEVEL: 'warn' }, async (cwd, env) => {
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
    }));
});

describe('when npm start runs on a terminal', () => {
  // `script` (util-linux) gives the run a pseudo-terminal, as a person at the keyboard has.
  it.skipIf(!existsSync('/usr/bin/script') && !process.env.CI)(
    'leaves the dashboard up after the sweep, says so, and exits 0 when stopped',
    () =>
      inNewDirectory('tty-', { LOG_LEVEL: 'warn', DASHBOARD_PORT: '0' }, async (cwd, env) => {
        const command = `echo "pid $$"; exec '${process.execPath}' '${npmStartScript()}' --n 4 --workers 1 --json`;
        const run = spawnWatched('script', ['-qfec', command, '/dev/null'], { cwd, env });
        await until('the dashboard line', () => run.stdout.includes('Ctrl-C to stop'), 60_000);
        expect(run.stdout).toContain('{"n":4,"S":"276","N":["256","16","2","2"]}');
        expect(run.stdout).toMatch(
          /dashboard at http:\/\/127\.0\.0\.1:\d+\/?; workers idle, ready for sweeps from its form; Ctrl-C to stop/,
        );
        // Still up a second later: it waits for the person, not for the sweep.
        await new Promise((r) => setTimeout(r, 1000));
        expect(run.child.exitCode).toBe(null);
        const pid = Number(/pid (\d+)/.exec(run.stdout)?.[1]);
        process.kill(pid, 'SIGINT');
        expect(await run.exited, run.stdout).toBe(0);
      }),
  );
});

describe('when npm start gets SIGHUP mid-sweep', () => {
  it('stops everything like on SIGTERM, says so in one line and exits with 129', () =>
    inNewDirectory('hup-', { LOG_LEVEL: 'info', WQ_SHUTDOWN_GRACE_MS: '500' }, async (cwd, env) => {
      const run = spawnWatched(
        process.execPath,
        [npmStartScript(), '--n', '15', '--workers', '1'],
        { cwd, env },
      );
      await until(
        'the sweep to be submitted',
        () => run.stderr.includes('sweep submitted'),
        30_000,
      );
      const sent = Date.now();
      run.child.kill('SIGHUP');
      expect(await run.exited, run.stderr).toBe(129);
      expect(run.stderr.split('\n').filter((line) => line.startsWith('npm start:'))).toEqual([
        'npm start: stopped by SIGHUP',
      ]);
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(run.stderr).toContain('"signal":"SIGHUP"');
      expect(run.stderr).toContain('embedded pipeline stopped');
    }));
});

describe('when npm start is killed with kill -9, or started twice on one ./.data', () => {
  /** Whether a process is alive (a zombie, reaped by nobody yet, counts as gone). */
  const alive = (pid: number): boolean => {
    try {
      return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
    } catch {
      return false;
    }
  };
  const childrenOf = (pid: number): number[] =>
    execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((p) => p > 0);

  it('refuses a second run naming the first, leaves nothing running, and the next run takes over', () =>
    inNewDirectory('kill-', { LOG_LEVEL: 'warn' }, async (cwd, env) => {
      const first = spawnWatched(
        process.execPath,
        [npmStartScript(), '--n', '15', '--workers', '1'],
        { cwd, env: { ...env, LOG_LEVEL: 'info' } },
      );
      await until(
        'the sweep to be submitted',
        () => first.stderr.includes('sweep submitted'),
        60_000,
      );
      const firstPid = first.child.pid as number;

      const second = await runNpmStart(['--n', '4', '--exit'], { cwd, env });
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(
        new RegExp(
          `^npm start: .*\\.data is in use by another npm start \\(pid ${firstPid}, since `,
        ),
      );

      const lock = JSON.parse(readFileSync(join(cwd, '.data', 'npm-start.lock'), 'utf8')) as {
        pid: number;
        redisPid: number;
      };
      expect(lock.pid).toBe(firstPid);
      // Redis, the worker, the dashboard and Redis's reaper.
      const left = [...new Set([lock.redisPid, ...childrenOf(firstPid)])];
      expect(left.length).toBeGreaterThanOrEqual(3);
      expect(left.every(alive)).toBe(true);

      first.child.kill('SIGKILL');
      await first.exited;
      await until('every process npm start started to be gone', () => !left.some(alive), 15_000);

      const third = await runNpmStart(['--n', '4,15', '--exit', '--json'], { cwd, env });
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).toContain(
        'npm start: resuming n = 15, queued by an earlier run: its jobs run as planned then',
      );
      expect(third.stderr).toContain(
        `taking over ${join(cwd, '.data')} from an npm start that is gone (pid ${firstPid}`,
      );
      expect(sumsOf(third.stdout)).toEqual([KNOWN_S[3], KNOWN_S[14]]);
      expect(existsSync(join(cwd, '.data', 'npm-start.lock'))).toBe(false);
    }));
});
