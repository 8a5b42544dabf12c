// The yardstick: the seed-style C++ sorted-merge DP in ../shared/baseline, built with g++.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/dist/baseline.js → ../..). */
export const repositoryRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Builds the baseline with its own build.sh and returns the binary's path. */
export function buildBaseline(): string {
  const directory = process.env.WQ_BASELINE_DIR ?? join(repositoryRoot, '..', 'shared', 'baseline');
  const script = join(directory, 'build.sh');
  if (!existsSync(script)) {
    throw new Error(
      `baseline not found: ${script} (set WQ_BASELINE_DIR to the folder with build.sh)`,
    );
  }
  const output = execFileSync(
    'bash',
    [script, join(tmpdir(), `weak-queens-seed-dp-${process.pid}`)],
    {
      encoding: 'utf8',
    },
  );
  return output.trim().split('\n').at(-1) ?? '';
}

export interface ResultLine {
  readonly n: number;
  readonly S: string;
  readonly N: string[];
}

/** Parses the JSON lines both the baseline and `wq compute --json` print. */
export function parseResultLines(stdout: string): ResultLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as ResultLine);
}
