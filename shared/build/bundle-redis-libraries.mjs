// Build step: BullMQ and ioredis (and what they require) as one CommonJS file,
// dist/vendor/redis-libraries.cjs, which src/client/redis-libraries.ts loads with a V8 code
// cache. Loaded from node_modules, their ~250 files cost every `wq` command and worker start
// 100–140 ms of resolving, reading and compiling; the bundle with its cache, 40–50 ms.
// Node's built-ins and the optional packages they probe for (pg, supports-color) stay
// `require`s, resolved at run time from the bundle's place.
import { builtinModules } from 'node:module';
import { build } from 'rolldown';

const OPTIONAL = ['pg', 'supports-color'];

await build({
  input: new URL('./redis-libraries-entry.cjs', import.meta.url).pathname,
  platform: 'node',
  external: [...builtinModules, /^node:/, ...OPTIONAL],
  output: {
    file: new URL('../dist/vendor/redis-libraries.cjs', import.meta.url).pathname,
    format: 'cjs',
  },
  logLevel: 'warn',
});
// The first load writes the code cache next to the bundle (see redis-libraries.ts).
await import('../dist/client/redis-libraries.js');
