// The kernel entry loads nothing but its own files and node: built-ins: a kernel thread or
// `wq compute` must never pull in ioredis, bullmq or pino. (The lint rule says the same for
// each file; this follows the whole import graph from the entry.)
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const kernelDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src/kernel');
const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g;

function importGraph(entry: string): { files: Set<string>; outside: string[] } {
  const files = new Set<string>();
  const outside: string[] = [];
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (spec.startsWith('node:')) continue;
      const target = spec.startsWith('.')
        ? resolve(dirname(file), spec.replace(/\.js$/, '.ts'))
        : '';
      if (!target || relative(kernelDir, target).startsWith('..')) {
        outside.push(`${relative(kernelDir, file)} imports ${spec}`);
        continue;
      }
      visit(target);
    }
  };
  visit(entry);
  return { files, outside };
}

describe('@weak-queens/shared/kernel', () => {
  it('reaches only its own files and node: built-ins from its entry', () => {
    const { files, outside } = importGraph(join(kernelDir, 'index.ts'));
    expect(outside).toEqual([]);
    // The walk really followed the graph: the counting algorithms are in it.
    expect(files.size).toBeGreaterThan(10);
    expect([...files].some((f) => f.endsWith('window-transfer.ts'))).toBe(true);
  });

  it('declares nothing about Redis: its errors are the contracts', () => {
    const { files } = importGraph(join(kernelDir, 'index.ts'));
    const declared = [...files].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^export .*?\b(\w*Redis\w*)/gm)].map(
        ([, name]) => `${relative(kernelDir, file)}: ${name}`,
      ),
    );
    expect(declared).toEqual([]);
  });
});
