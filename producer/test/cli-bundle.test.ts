// The `wq` command runs bundled (build/bundle-cli.mjs). A bundled module that names a file beside
// itself does so through its own URL, rewritten as a path from the chunk to where the module was
// built: each of those must be a module of the build, or a kernel thread, a WebAssembly build or
// BullMQ would be looked for in the wrong place (and a missing WebAssembly build is not an error:
// the slower TypeScript kernel runs instead).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BUNDLE = new URL('../dist/bundle/', import.meta.url);

describe('when wq runs bundled', () => {
  const chunks = readdirSync(BUNDLE).filter((file) => file.endsWith('.js'));

  it('names every module by a path that leads to it from its chunk', () => {
    const named = chunks.flatMap((chunk) =>
      [...readFileSync(new URL(chunk, BUNDLE), 'utf8').matchAll(OWN_URL)].map((m) => ({
        chunk,
        module: new URL(m[1] ?? '', new URL(chunk, BUNDLE)),
      })),
    );
    // The kernel's threads and WebAssembly, the BullMQ bundle and pino's require at least.
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(named.filter(({ module }) => !existsSync(module))).toEqual([]);
  });

  it('leaves no module with the chunk’s URL for its own', () => {
    const bare = chunks.filter((chunk) =>
      readFileSync(new URL(chunk, BUNDLE), 'utf8').replace(OWN_URL, '').includes('import.meta.url'),
    );
    expect(bare).toEqual([]);
  });
});

/** A module's own URL in a chunk: `new URL("<path from the chunk>", import.meta.url).href`. */
const OWN_URL = /new URL\("([^"]+)", import\.meta\.url\)\.href/g;
