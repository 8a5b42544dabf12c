// The dashboard process, started from the producer side (`wq dashboard`, `npm start`). The
// dashboard package uses the producer's pipeline client, so the producer never imports it: it
// resolves the dashboard's entry file and runs it with node, like the worker's.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DashboardMissingError } from '../errors.js';
import { type NodeProcessOptions, spawnNodeEntry } from './worker-process.js';

/** The dashboard package's process entry (`@weak-queens/dashboard/main`, its dist/main.js). */
export function dashboardEntry(): string {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve('@weak-queens/dashboard/main'));
  } catch {
    throw new DashboardMissingError(
      'the @weak-queens/dashboard package is not installed (run npm install at the repository root)',
    );
  }
  if (!existsSync(entry)) {
    throw new DashboardMissingError(`${entry} is missing: run npm run build first`);
  }
  return entry;
}

export type DashboardProcessOptions = NodeProcessOptions;

export function spawnDashboardProcess(options: DashboardProcessOptions = {}): ChildProcess {
  return spawnNodeEntry(dashboardEntry(), options);
}

/**
 * Resolves with the URL the dashboard prints on stdout once it listens, or rejects with its
 * last words on stderr when it exits first (a port in use, a bad flag).
 */
export function dashboardUrl(child: ChildProcess, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => finish(new Error('the dashboard did not start in time')),
      timeoutMs,
    );
    const finish = (error?: Error, url?: string): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onOut);
      child.off('exit', onExit);
      if (url !== undefined) resolve(url);
      else reject(error ?? new Error('the dashboard stopped'));
    };
    const onOut = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /dashboard: (\S+)/.exec(out);
      if (match?.[1]) finish(undefined, match[1]);
    };
    const onExit = (): void => {
      const last = err.trim().split('\n').pop() ?? '';
      finish(new Error(last.replace(/^wq dashboard: /, '') || 'the dashboard exited'));
    };
    child.stdout?.on('data', onOut);
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', onExit);
  });
}

/**
 * For `npm start`: the dashboard on DASHBOARD_PORT (3000) or, when that port is taken, on any
 * free one. Its stdout is piped (npm start's stdout carries the results). Resolves to undefined
 * with the reason when it cannot start: the sweep runs anyway.
 */
export async function startEmbeddedDashboard(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string } | { reason: string }> {
  let reason = '';
  for (const port of [env.DASHBOARD_PORT?.trim() || '3000', '0']) {
    let child: ChildProcess;
    try {
      child = spawnDashboardProcess({
        args: ['--port', port],
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (err) {
      return { reason: err instanceof Error ? err.message : String(err) };
    }
    try {
      const url = await dashboardUrl(child);
      child.stdout?.resume();
      child.stderr?.resume();
      return { child, url };
    } catch (err) {
      if (child.exitCode === null) child.kill('SIGKILL');
      reason = err instanceof Error ? err.message : String(err);
    }
  }
  return { reason };
}
