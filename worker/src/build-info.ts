// What a worker's heartbeat names as its build: two builds of one package version differ by
// their commit, and only the build tells an operator which machine still runs the old one.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's version (its package.json). */
export const WORKER_VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;

/**
 * `0.1.0+d9654b9`: the version and the commit of the checkout it runs from, or the version
 * alone where there is none (an image built without .git). Read once, at start: the commit a
 * process started from is the one it runs, whatever the checkout moves to later.
 */
export function buildOf(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return /^[0-9a-f]{4,40}$/.test(commit) ? `${WORKER_VERSION}+${commit}` : WORKER_VERSION;
  } catch {
    return WORKER_VERSION;
  }
}
