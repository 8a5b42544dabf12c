// Runs the built `wq` binary as a user would, against one test's Redis and key prefix.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnWatched } from './watched-child.js';

export interface WqRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** producer/bin/wq.js, found through the producer package (its dist/index.js). */
export function wqBinary(): string {
  const producerDist = dirname(createRequire(import.meta.url).resolve('@weak-queens/producer'));
  return join(producerDist, '..', 'bin', 'wq.js');
}

export function runWq(
  args: readonly string[],
  env: { readonly url: string; readonly prefix: string } & Record<string, string>,
): Promise<WqRun> {
  const { url, prefix, ...rest } = env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [wqBinary(), ...args],
      {
        env: { ...process.env, REDIS_URL: url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn', ...rest },
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `wq sweep --json` prints one `{ n, S, … }` line per size: its [n, S] pairs. */
export function sumLines(stdout: string): [number, string][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { n: number; S: string })
    .map((l) => [l.n, l.S]);
}

/** producer/dist/start.js: what `npm start` runs. */
export function npmStartScript(): string {
  const producerDist = dirname(createRequire(import.meta.url).resolve('@weak-queens/producer'));
  return join(producerDist, 'start.js');
}

/** Runs `npm start` with `args` to its end; code is null when a signal ended it. */
export async function runNpmStart(
  args: readonly string[],
  options: { readonly cwd?: string; readonly env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnWatched(process.execPath, [npmStartScript(), ...args], options);
  const code = await run.exited;
  return { code, stdout: run.stdout, stderr: run.stderr };
}

/** The S(n) of each JSON line a `--json` run printed (`wq sweep`, `wq results`, `npm start`). */
export function sumsOf(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { S: string }).S);
}
