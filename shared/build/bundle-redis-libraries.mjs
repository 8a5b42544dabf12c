// Build step: BullMQ and ioredis (and what they require) as one CommonJS file,
// dist/vendor/redis-libraries.cjs, which src/client/redis-libraries.ts loads with a V8 code
// cache. Loaded from node_modules, their ~250 files cost every `wq` command and worker start
// their resolving, reading and compiling; the bundle with its cache, well under half of that.
// Node's built-ins and the optional packages they probe for (pg, supports-color) stay
// `require`s, resolved at run time from the bundle's place.
//
// The bundle is ASCII only, without comments, and holds only the BullMQ the project uses
// (redis-libraries-entry.cjs): 1.17 MB instead of 1.98, read as Latin-1 straight into a
// one-byte string, which loads faster than a two-byte one (docs/costs.md).
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'rolldown';

const OPTIONAL = ['pg', 'supports-color'];

/**
 * BullMQ's job schedulers parse cron patterns with cron-parser (and luxon): 320 kB that every
 * `wq` command and worker would read and load, for a feature the project does not use. In the
 * bundle, a scheduler with a pattern fails with this error instead.
 */
const CRON_STUB = '\0cron-parser-left-out';
const withoutCronParser = {
  name: 'without-cron-parser',
  resolveId(id) {
    return id === 'cron-parser' ? CRON_STUB : null;
  },
  load(id) {
    if (id !== CRON_STUB) return null;
    return `const leftOut = () => {
  throw new Error('BullMQ job schedulers with cron patterns are left out of this build');
};
module.exports = { CronExpressionParser: { parse: leftOut } };`;
  },
};

const BUNDLE = new URL('../dist/vendor/redis-libraries.cjs', import.meta.url).pathname;

// V8 checks a code cache against its source's length only: a rebuilt bundle of the same length
// would run the old one's code. The cache goes with the bundle it was made from.
rmSync(`${BUNDLE}.v8-cache`, { force: true });
await build({
  input: new URL('./redis-libraries-entry.cjs', import.meta.url).pathname,
  platform: 'node',
  external: [...builtinModules, /^node:/, ...OPTIONAL],
  plugins: [withoutCronParser],
  output: {
    file: BUNDLE,
    format: 'cjs',
    charset: 'ascii',
    comments: false,
  },
  logLevel: 'warn',
});
const nonAscii = readFileSync(BUNDLE).findIndex((byte) => byte > 0x7f);
if (nonAscii >= 0) {
  throw new Error(`${BUNDLE}: byte ${nonAscii} is not ASCII, and the loader reads it as Latin-1`);
}
// The first load writes the code cache next to the bundle (see redis-libraries.ts).
await import('../dist/client/redis-libraries.js');
