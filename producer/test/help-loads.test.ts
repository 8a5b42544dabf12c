// `wq --help`, `wq <command> --help` and a refused command line read only the command table and
// text: no command runs, so none may load the pipeline client's packages (BullMQ, ioredis, pino).
// Hooks report every module the run loads; what it loads is checked, not how long it takes.
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));

/** Writes `resolved <url>` on stderr for every ES module resolved after it is registered. */
const REPORT_RESOLVED = `data:text/javascript,export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('resolved ' + resolved.url + '\\n');
  return resolved;
}`;
/**
 * Registers that hook, and reports what ES module hooks do not see: `required <request>` for
 * every require (pino is one), and `read <path>` for a CommonJS file read as a script (the `wq`
 * bundle itself, producer/dist/bundle/wq.cjs; BullMQ and ioredis come as another,
 * shared/dist/vendor/redis-libraries.cjs).
 */
const REGISTER = `data:text/javascript,import { register, syncBuiltinESMExports, Module } from 'node:module';
import fs from 'node:fs';
register(${JSON.stringify(REPORT_RESOLVED)});
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (String(path).endsWith('.cjs')) process.stderr.write('read ' + path + '\\n');
  return read.call(this, path, ...rest);
};
syncBuiltinESMExports();
const load = Module._load;
Module._load = function (request, ...rest) {
  process.stderr.write('required ' + request + '\\n');
  return load.call(this, request, ...rest);
};`;

/**
 * The packages `wq <args>` loads, and the files of the build it loads: the scripts it reads and
 * the ES modules it resolves under a package's dist/ (paths from the repository's root).
 */
function loadedBy(...args: string[]): Promise<{ packages: string[]; files: string[] }> {
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
      for (const [, request] of stderr.matchAll(/^required (\S+)$/gm)) {
        const name = /^((?:@[^/]+\/)?[^/.][^/]*)/.exec(request ?? '')?.[1];
        if (name && !name.startsWith('node:') && !builtinModules.includes(name))
          packages.push(name);
      }
      if (/^read \S*redis-libraries\.cjs$/m.test(stderr)) packages.push('bullmq', 'ioredis');
      const read = [...stderr.matchAll(/^read (\S+)$/gm)].map((m) => m[1] ?? '');
      const files = [...urls.filter((url) => url.startsWith('file:')), ...read].flatMap(
        (file) => /\/((?:shared|producer|worker|dashboard)\/dist\/.+)$/.exec(file)?.[1] ?? [],
      );
      resolve({ packages: [...new Set(packages)].sort(), files: [...new Set(files)].sort() });
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
  it('wq --help reads the bundle and nothing else: no package, no module of the build', async () => {
    const { packages, files } = await loadedBy('--help');
    expect(packages).toEqual([]);
    // The one script (bin/wq.js runs its command table); no kernel thread or WebAssembly, no
    // BullMQ bundle, nothing of shared, the worker or the dashboard beside it.
    expect(files).toEqual(['producer/dist/bundle/wq.cjs']);
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
