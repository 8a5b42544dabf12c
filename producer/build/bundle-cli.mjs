// Build step: the `wq` command (dist/cli/main.js and what it imports from this package, shared
// and valibot) bundled into one CommonJS script, dist/bundle/wq.cjs, which bin/wq.js runs. Node
// resolves, reads and links each ES module on its own (a command that reaches Redis loads about
// 115); one script is read and compiled at once (what that buys: docs/costs.md). A command's
// modules still run only when the command does (a dynamic import becomes a call that runs them
// then): `wq --help` runs the command table and no command.
//
// A module that names a file beside itself (a kernel thread's script, a WebAssembly build, the
// BullMQ bundle, a require) does so through its import.meta.url: in the bundle, that expression
// becomes the module's own URL again, found from the bundle's (__wqBundleUrl, which bin/wq.js
// passes in), so every such file is the one the unbundled module would have used; and
// import.meta.resolve becomes bin/wq.js's resolver from the bundle's place. Node's built-ins
// stay requires; BullMQ and ioredis stay the shared package's bundle; pino stays a require.
import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const entry = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));

/** Each module's import.meta.url and import.meta.resolve, as the module's own. */
const ownUrl = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta')) return null;
    const path = relative(outDir, id).split('\\').join('/');
    const own = `new URL(${JSON.stringify(path)}, __wqBundleUrl).href`;
    const rewritten = code
      .replaceAll('import.meta.url', own)
      .replaceAll('import.meta.resolve(', '__wqResolve(');
    if (rewritten.includes('import.meta')) {
      throw new Error(`${id}: import.meta other than .url and .resolve() has no bundled form`);
    }
    return { code: rewritten, map: null };
  },
};

// The bundle folder is the build's own.
rmSync(outDir, { recursive: true, force: true });
await build({
  input: entry,
  platform: 'node',
  external: [...builtinModules, /^node:/],
  plugins: [ownUrl],
  output: {
    dir: outDir,
    format: 'cjs',
    entryFileNames: 'wq.cjs',
    // One script: what a command loads is read and compiled at once, not a file at a time.
    codeSplitting: false,
    // Without comments and in ASCII (text outside it escaped, the same strings at run time), the
    // script is one-byte source: bin/wq.js reads it as Latin-1, a V8 one-byte string at once.
    comments: false,
    charset: 'ascii',
  },
  logLevel: 'warn',
});
