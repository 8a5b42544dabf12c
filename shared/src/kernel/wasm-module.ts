// Loads one of this package's WebAssembly builds (shared/assembly/*.ts, compiled by the
// package's build with `asc`, a pinned devDependency, offline, into dist/kernel/ beside this
// module). Synchronously and once per module and thread: the modules are a few kB, so compiling
// one on first use costs about a millisecond.
import { existsSync, readFileSync } from 'node:fs';

// The few WebAssembly globals used here (TypeScript's node types do not declare them).
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

const loaded = new Map<string, object | null>();

/**
 * The exports of dist/kernel/`file`, or undefined when the package was built without it. From
 * src/kernel/ (vitest runs the sources), the build's copy.
 */
export function wasmExports(file: string): object | undefined {
  let exports = loaded.get(file);
  if (exports === undefined) {
    exports = load(file) ?? null;
    loaded.set(file, exports);
  }
  return exports ?? undefined;
}

function load(file: string): object | undefined {
  for (const candidate of [`./${file}`, `../../dist/kernel/${file}`]) {
    const url = new URL(candidate, import.meta.url);
    if (!existsSync(url)) continue;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(url)), {});
    return instance.exports;
  }
  return undefined;
}
