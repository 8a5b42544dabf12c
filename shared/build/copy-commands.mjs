// Build step: the Lua scripts (src/client/commands/*.lua) copied beside their compiled loader,
// which reads them from its own folder; tsc copies only what it compiles.
import { copyFileSync, readdirSync } from 'node:fs';

const from = new URL('../src/client/commands/', import.meta.url);
const to = new URL('../dist/client/commands/', import.meta.url);
for (const file of readdirSync(from).filter((name) => name.endsWith('.lua'))) {
  copyFileSync(new URL(file, from), new URL(file, to));
}
