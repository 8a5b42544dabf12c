// Build step: the `wq` command (dist/cli/main.js and what it imports from this package, shared
// and valibot) bundled into dist/bundle/: wq.js, which bin/wq.js loads, with the command table,
// and one chunk per command and per part a command loads when it runs (the client, the kernel).
// Node resolves, reads and links each module on its own: the ~115 a Redis command loads cost
// every `wq sweep` 40–50 ms, a tenth of a small sweep on 2 cores (docs/costs.md); `wq --help`
// still loads only the table.
//
// A module that names a file beside itself (a kernel thread's script, a WebAssembly build, the
// BullMQ bundle, a require) does so through its import.meta.url: in a chunk, that expression
// becomes the module's own URL again, found from the chunk's, so every such file is the one the
// unbundled module would have used. Node's built-ins stay imports; BullMQ and ioredis stay the
// shared package's bundle with its code cache; pino stays a require.
import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const entry = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));

/** Each module's import.meta.url, as the module's own location relative to the bundle's. */
const ownUrl = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url')) return null;
    const path = relative(outDir, id).split('\\').join('/');
    const own = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
    return { code: code.replaceAll('import.meta.url', own), map: null };
  },
};

/**
 * Two chunks for what commands share, instead of the bundler's own cut (a dozen chunks for a
 * sweep to load one by one): the client (BullMQ with it, so only a command that talks to Redis
 * loads it), and what the client and the local commands stand on: contracts, valibot and the
 * kernel, but its error classes, which the command table uses.
 */
const CLIENT = /shared\/dist\/client\//;
const BASE = /shared\/dist\/contracts\/|shared\/dist\/kernel\/(?!errors\.js)|valibot/;

// Chunks are named by their content: a rebuild's would otherwise sit beside the last one's.
rmSync(outDir, { recursive: true, force: true });
await build({
  input: entry,
  platform: 'node',
  external: [...builtinModules, /^node:/],
  plugins: [ownUrl],
  // The entry's exports are nobody's (bin/wq.js only runs it): chunks may add to them.
  preserveEntrySignatures: 'allow-extension',
  // A command's lazy import() of what another command imports eagerly is fine as it is.
  checks: { ineffectiveDynamicImport: false },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: 'wq.js',
    // Without comments and in ASCII (text outside it escaped, the same strings at run time), the
    // chunks a sweep loads are 275 kB of one-byte source instead of 370 kB of two-byte: V8
    // scans them each run, as Node 20 keeps no code cache for ES modules (`wq plan` −20 ms).
    comments: false,
    charset: 'ascii',
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        { name: 'client', test: CLIENT },
        { name: 'base', test: BASE },
      ],
    },
  },
  logLevel: 'warn',
});
