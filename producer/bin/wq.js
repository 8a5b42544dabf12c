#!/usr/bin/env node
// The `wq` command: runs dist/bundle/wq.cjs, the whole CLI as one script (build/bundle-cli.mjs,
// `npm run build`). This file is CommonJS (bin/package.json): an ES module entry costs Node ~7 ms
// more before its first line runs.
'use strict';
const { readFileSync } = require('node:fs');
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

// CommonJS's own wrapper, and the two names the build gives import.meta: the bundle's URL (each
// module's own is found from it) and a resolver from the bundle's place.
const wrapped =
  '(function (exports, require, module, __filename, __dirname, __wqBundleUrl, __wqResolve) {' +
  `${source}\n})`;
const script = new vm.Script(wrapped, {
  filename: BUNDLE,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
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
