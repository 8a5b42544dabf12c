// The WebAssembly build of the pruned classic search: shared/assembly/classic-units.ts, compiled
// by this package's build (`asc`, a pinned devDependency, offline) into
// dist/kernel/classic-units.wasm beside this module. The TypeScript search in classic-units.ts
// is the reference; the tests require this build and compare the two unit by unit.
//
// Loaded synchronously and once per thread (kernel threads load it themselves): the module is
// 2 kB, so compiling it on first use costs about a millisecond.
import { existsSync, readFileSync } from 'node:fs';

// The few WebAssembly globals used here (TypeScript's node types do not declare them).
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

/** The exports of classic-units.wasm. `high` is ~fullMask(n): every bit from n up. */
export interface ClassicWasm {
  countCorner(n: number, second: number, high: number): number;
  countEdge(n: number, first: number, second: number, high: number): void;
  eights(): number;
  fours(): number;
  twos(): number;
}

// Beside the compiled module in dist/kernel/; from src/kernel/ (vitest runs the sources), the
// build's copy.
const CANDIDATES = ['./classic-units.wasm', '../../dist/kernel/classic-units.wasm'];

let loaded: ClassicWasm | null | undefined;

/** The WebAssembly search, or undefined when the package was built without it. */
export function classicWasm(): ClassicWasm | undefined {
  if (loaded === undefined) loaded = load() ?? null;
  return loaded ?? undefined;
}

function load(): ClassicWasm | undefined {
  for (const candidate of CANDIDATES) {
    const url = new URL(candidate, import.meta.url);
    if (!existsSync(url)) continue;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(url)), {});
    return instance.exports as ClassicWasm;
  }
  return undefined;
}
