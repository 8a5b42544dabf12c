// `wq --help`, `wq <command> --help` and a refused command line read only the command table and
// text: no command runs, so none may load the pipeline client's packages (BullMQ, ioredis, pino).
// A hook reports every module the run resolves; what it loads is checked, not how long it takes.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));

/** Writes `resolved <url>` on stderr for every module resolved after it is registered. */
const REPORT_RESOLVED = `data:text/javascript,export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('resolved ' + resolved.url + '\\n');
  return resolved;
}`;
const REGISTER = `data:text/javascript,import { register } from 'node:module';
register(${JSON.stringify(REPORT_RESOLVED)});`;

/** The packages of node_modules that `wq <args>` loads, and the modules of producer/dist. */
function loadedBy(...args: string[]): Promise<{ packages: string[]; producer: string[] }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', REGISTER, WQ, ...args], (error, _stdout, stderr) => {
      // Only a run that could not start fails here; the exit code of one that ran is wq's own.
      if (error && typeof error.code !== 'number') return reject(new Error(error.message));
      const urls = [...stderr.matchAll(/^resolved (\S+)$/gm)].map((m) => m[1] ?? '');
      const packages = urls.flatMap((url) => {
        const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
        // The workspace's own packages are linked into node_modules under @weak-queens.
        return name === undefined || name.startsWith('@weak-queens/') ? [] : [name];
      });
      const producer = urls.flatMap((url) => /\/producer\/dist\/(.+)$/.exec(url)?.[1] ?? []);
      resolve({ packages: [...new Set(packages)].sort(), producer: [...new Set(producer)].sort() });
    });
  });
}

const COMMANDS = [
  'compute',
  'classic',
  'unique',
  'boards',
  'sweep',
  'plan',
  'worker',
  'status',
  'results',
  'cancel',
  'retry',
  'replan',
  'verify',
  'dashboard',
];

describe.concurrent('when wq is asked for help', () => {
  it('wq --help loads the dispatcher and the command table, no package and no command', async () => {
    expect(await loadedBy('--help')).toEqual({
      packages: [],
      producer: ['cli/cli.js', 'cli/command.js', 'cli/commands/index.js', 'cli/main.js'],
    });
  });

  it.each(COMMANDS)('wq %s --help loads neither BullMQ, ioredis nor pino', async (command) => {
    const { packages } = await loadedBy(command, '--help');
    expect(packages.filter((name) => /^(bullmq|ioredis|pino)$/.test(name))).toEqual([]);
  });

  it('a refused option loads neither BullMQ, ioredis nor pino', async () => {
    const { packages } = await loadedBy('sweep', '4', '--bogus');
    expect(packages.filter((name) => /^(bullmq|ioredis|pino)$/.test(name))).toEqual([]);
  });
});
