// The `wq` command runs bundled (build/bundle-cli.mjs), one script. A bundled module that names a
// file beside itself does so through its own URL, rewritten as a path from the bundle to where the
// module was built: each of those must be a module of the build, or a kernel thread, a
// WebAssembly build or BullMQ would be looked for in the wrong place (and a missing WebAssembly
// build is not an error: the slower TypeScript kernel runs instead).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BUNDLE = new URL('../dist/bundle/wq.cjs', import.meta.url);
const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));
const run = promisify(execFile);

describe('when wq runs bundled', () => {
  const source = readFileSync(BUNDLE, 'latin1');

  it('names every module by a path that leads to it from the bundle', () => {
    const named = [...source.matchAll(OWN_URL)].map((m) => new URL(m[1] ?? '', BUNDLE));
    // The kernel's threads and WebAssembly, the BullMQ bundle and pino's require at least.
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(named.filter((module) => !existsSync(module))).toEqual([]);
  });

  it('leaves no import.meta, which a script does not have', () => {
    expect(source.includes('import.meta')).toBe(false);
  });

  it('runs a command from the bundle and writes nothing beside it', async () => {
    const before = readdirSync(new URL('.', BUNDLE)).sort();
    const { stdout } = await run(process.execPath, [WQ, 'unique', '8']);
    expect(stdout).toBe('12\n');
    expect(readdirSync(new URL('.', BUNDLE)).sort()).toEqual(before);
  });

  it('is ASCII, which bin/wq.js reads as Latin-1', () => {
    expect([...source].every((char) => char.charCodeAt(0) < 0x80)).toBe(true);
  });
});

/** A module's own URL in the bundle: `new URL("<path from the bundle>", __wqBundleUrl).href`. */
const OWN_URL = /new URL\("([^"]+)", __wqBundleUrl\)\.href/g;
