// BullMQ and ioredis, for everything in the project that makes their objects (types still come
// from `import type`). The build bundles them into one file (build/bundle-redis-libraries.mjs);
// it is compiled with a V8 code cache kept beside it, written by the first process that loads
// it (and again after a Node upgrade, when V8 rejects the old one). From node_modules, every
// `wq` command and worker start would resolve, read and compile their ~250 CommonJS files; the
// bundle from its cache loads in well under half that time (docs/costs.md).
// Run from source (vitest) or from a build without the bundle, they load from node_modules.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/**
 * The parts of BullMQ the bundle holds (build/redis-libraries-entry.cjs lists the same): the
 * type keeps code from reaching for one the bundle lacks but node_modules, under vitest, has.
 */
type BullMQ = Pick<
  typeof import('bullmq'),
  | 'Queue'
  | 'Worker'
  | 'FlowProducer'
  | 'QueueEvents'
  | 'UnrecoverableError'
  | 'DelayedError'
  | 'WaitingError'
  | 'MetricsTime'
>;

interface RedisLibraries {
  readonly bullmq: BullMQ;
  readonly ioredis: typeof import('ioredis');
}

const BUNDLE = fileURLToPath(new URL('../vendor/redis-libraries.cjs', import.meta.url));

function loadRedisLibraries(): RedisLibraries {
  let source: string;
  try {
    // The build writes it in ASCII only (bundle-redis-libraries.mjs): read as Latin-1, it becomes
    // V8's one-byte string at once, half the size of the two-byte one UTF-8 decoding makes.
    source = readFileSync(BUNDLE, 'latin1');
  } catch {
    const require = createRequire(import.meta.url);
    return {
      bullmq: require('bullmq') as RedisLibraries['bullmq'],
      ioredis: require('ioredis') as RedisLibraries['ioredis'],
    };
  }
  const cacheFile = `${BUNDLE}.v8-cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // CommonJS's own wrapper: the bundle gets its `require`, `module` and file names from the call.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, {
    filename: BUNDLE,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as RedisLibraries };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  if (!cachedData || script.cachedDataRejected) writeCodeCache(cacheFile, script);
  return module.exports;
}

/** Best effort: a read-only install just compiles each time; a rename keeps readers whole. */
function writeCodeCache(cacheFile: string, script: vm.Script): void {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
  } catch {
    // Not writable, or another process renamed its own first: either way nothing is lost.
  }
}

export const { bullmq, ioredis } = loadRedisLibraries();
