#!/usr/bin/env node
// The `wq` command: runs dist/bundle/wq.cjs, the whole CLI as one script (build/bundle-cli.mjs,
// `npm run build`), compiled with a V8 code cache kept beside it. This file is CommonJS
// (bin/package.json): an ES module entry costs Node ~7 ms more before its first line runs.
//
// One cache per command (`wq.sweep.<size>-<time>.v8-cache`), written as the first run of that
// command after a build exits 0, so it holds what that command compiled while it ran, not only
// the top level: the next run compiles nothing it had. A cache V8 rejects (another Node, other V8
// flags) is written again the same way. Writing is best effort: a read-only install compiles
// each time.
'use strict';
const {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

const BUNDLE_DIR = join(__dirname, '..', 'dist', 'bundle');
const BUNDLE = join(BUNDLE_DIR, 'wq.cjs');

let source;
try {
  // ASCII only (the build makes it so): as Latin-1 it is V8's one-byte string at once.
  source = readFileSync(BUNDLE, 'latin1');
} catch (err) {
  process.stderr.write(
    `wq: cannot read ${BUNDLE} (${err.code ?? err.message}): run npm run build\n`,
  );
  process.exit(1);
}

const args = process.argv.slice(2);
// `wq <command> --help` runs no command: its cache is help's, not the command's.
const command = args.some((arg) => arg === '--help' || arg === '-h')
  ? 'help'
  : /^[a-z]+$/.test(args[0] ?? '')
    ? args[0]
    : 'other';
// V8 checks a code cache against its source's length only: one made by the runs of another build
// of the same length would run that build's code. The build removes the caches, but Turborepo,
// restoring a build's outputs from its cache, leaves those beside them: the name holds the
// bundle's size and time.
const { size, mtimeMs } = statSync(BUNDLE);
const cacheFile = join(BUNDLE_DIR, `wq.${command}.${size}-${Math.trunc(mtimeMs)}.v8-cache`);
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}

// CommonJS's own wrapper, and the two names the build gives import.meta: the bundle's URL (each
// module's own is found from it) and a resolver from the bundle's place.
const wrapped =
  '(function (exports, require, module, __filename, __dirname, __wqBundleUrl, __wqResolve) {' +
  `${source}\n})`;
const script = new vm.Script(wrapped, {
  filename: BUNDLE,
  ...(cachedData ? { cachedData } : {}),
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (!cachedData || script.cachedDataRejected) {
  process.once('exit', (code) => {
    // Only a run that did its work: one that failed early (Redis away, refused input, a mistyped
    // command) compiled little of its command, and its cache would be the one every later run
    // starts from.
    if (code !== 0) return;
    const partial = `${cacheFile}.${process.pid}`;
    let fd;
    try {
      fd = openSync(partial, 'wx');
    } catch {
      return; // not writable (a read-only install): it compiles each time, nothing else is lost
    }
    try {
      writeSync(fd, script.createCachedData());
      closeSync(fd);
      // A rename keeps a reader whole when two first runs end together.
      renameSync(partial, cacheFile);
    } catch {
      rmSync(partial, { force: true });
    }
  });
}
const requireFromBundle = createRequire(BUNDLE);
const module_ = { exports: {} };
script
  .runInThisContext()
  .call(
    module_.exports,
    module_.exports,
    requireFromBundle,
    module_,
    BUNDLE,
    BUNDLE_DIR,
    pathToFileURL(BUNDLE).href,
    (specifier) => pathToFileURL(requireFromBundle.resolve(specifier)).href,
  );
