// The Lua scripts' headers are their documentation: each names its KEYS and ARGV, and a caller
// passes them by those names, so the header and the positions the loader sends must agree.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as commands from '../src/client/commands/index.js';
import { RedisScript } from '../src/client/commands/index.js';

interface LoadedScript {
  readonly name: string;
  readonly lua: string;
  readonly keyNames: readonly string[];
  readonly argNames: readonly string[];
}

const scripts: readonly LoadedScript[] = Object.values(commands).flatMap((value) =>
  value instanceof RedisScript ? [value] : [],
);

/** The names a header gives KEYS[i] or ARGV[i] (fixed positions only), in order. */
function headerNames(lua: string, list: 'KEYS' | 'ARGV'): string[] {
  const header = lua.slice(0, lua.indexOf(']]'));
  const names: string[] = [];
  for (const [, index = '', name = ''] of header.matchAll(
    new RegExp(`^\\s*${list}\\[(\\d+)\\]\\s+(\\w+)`, 'gm'),
  )) {
    expect(Number(index)).toBe(names.length + 1);
    names.push(name);
  }
  return names;
}

describe('when the client runs a Lua script', () => {
  it('loads every .lua file of the commands folder', () => {
    const files = readdirSync(new URL('../src/client/commands/', import.meta.url))
      .filter((file) => file.endsWith('.lua'))
      .map((file) => file.replace(/\.lua$/, ''));
    expect(scripts.map((s) => s.name).sort()).toEqual(files.sort());
  });

  it.each(scripts.map((s) => [s.name, s] as const))(
    'passes %s its KEYS and ARGV in the order its header names them',
    (_, script) => {
      expect(script.lua.startsWith('--[[')).toBe(true);
      expect(headerNames(script.lua, 'KEYS')).toEqual(script.keyNames);
      expect(headerNames(script.lua, 'ARGV')).toEqual(script.argNames);
    },
  );
});
