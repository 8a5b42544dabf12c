// The WebAssembly build of the weak-queens DFS: shared/assembly/weak-dfs.ts, compiled into
// dist/kernel/weak-dfs.wasm (see wasm-module.ts). The TypeScript search in bitmask-dfs.ts is the
// reference; the tests require this build and compare the two unit by unit.
import { wasmExports } from './wasm-module.js';

/**
 * The exports of weak-dfs.wasm. A unit is set up by begin (its board and the run's first row),
 * place (each fixed row) and prepare (the row after the run; returns the first searched row's
 * free columns), then counted by search (the first searched row restricted to `only`). The
 * module holds one unit at a time.
 */
export interface DfsWasm {
  begin(n: number, depth: number, from: number): void;
  place(row: number, column: number): void;
  prepare(next: number): number;
  search(only: number): number;
}

/** The WebAssembly search, or undefined when the package was built without it. */
export function dfsWasm(): DfsWasm | undefined {
  return wasmExports('weak-dfs.wasm') as DfsWasm | undefined;
}
