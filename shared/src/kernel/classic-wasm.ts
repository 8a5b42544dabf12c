// The WebAssembly build of the pruned classic search: shared/assembly/classic-units.ts, compiled
// into dist/kernel/classic-units.wasm (see wasm-module.ts). The TypeScript search in
// classic-units.ts is the reference; the tests require this build and compare the two unit by
// unit.
import { wasmExports } from './wasm-module.js';

/** The exports of classic-units.wasm. `high` is ~fullMask(n): every bit from n up. */
export interface ClassicWasm {
  countCorner(n: number, second: number, high: number): number;
  countEdge(n: number, first: number, second: number, high: number): void;
  eights(): number;
  fours(): number;
  twos(): number;
}

/** The WebAssembly search, or undefined when the package was built without it. */
export function classicWasm(): ClassicWasm | undefined {
  return wasmExports('classic-units.wasm') as ClassicWasm | undefined;
}
