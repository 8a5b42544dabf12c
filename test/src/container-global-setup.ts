// Vitest globalSetup: a container engine for the test run (scripts/container-engine.sh up), handed
// to the test files through `inject('containerEngine')`, and stopped again after the last file,
// with a check that nothing of it is left running. Under CI=1 an engine that cannot be had fails
// the run; elsewhere the container tests skip with the one line that says what is missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { ContainerEngine } from './container-engine.js';

const SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'scripts',
  'container-engine.sh',
);
const ci = (): boolean => Boolean(process.env.CI) && process.env.CI !== 'false';

export default function setup(project: TestProject): () => void {
  // By hand (one file, no CI) only what `prepare` installed and built is used: a test file run
  // alone should not start a first-time build of several minutes. npm test prepares first.
  const args = ['up', '--pid', String(process.pid), ...(ci() ? [] : ['--if-prepared'])];
  const up = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', stdio: 'pipe' });
  let engine: ContainerEngine;
  if (up.status === 0) {
    const vars = Object.fromEntries(
      up.stdout
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    engine = {
      dockerHost: vars.DOCKER_HOST ?? '',
      started: vars.WQ_CONTAINER_ENGINE !== 'external',
      nodeImage: vars.WQ_NODE_IMAGE ?? '',
      redisImage: vars.WQ_REDIS_IMAGE ?? '',
      compose: (vars.WQ_COMPOSE ?? 'docker-compose').split(' '),
    };
  } else {
    const reason = up.stderr.trim().split('\n').at(-1) ?? `container-engine.sh exited ${up.status}`;
    if (ci()) throw new Error(`CI=1 and no container engine: ${reason}`);
    engine = { missing: reason };
  }
  project.provide('containerEngine', engine);

  return () => {
    if ('missing' in engine || !engine.started) return;
    execFileSync('bash', [SCRIPT, 'down', '--pid', String(process.pid)], { stdio: 'inherit' });
    // Another test run on this machine may still hold the engine (its lease); if none does,
    // nothing of ours may be left: no dockerd, containerd or shim, no bridge.
    const left = execFileSync('bash', [SCRIPT, 'status'], { encoding: 'utf8' }).trim();
    if (left && !/^lease /m.test(left)) throw new Error(`left running after the tests:\n${left}`);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    containerEngine: ContainerEngine;
  }
}
