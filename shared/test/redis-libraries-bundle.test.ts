// The build's bundle of BullMQ and ioredis (dist/vendor/redis-libraries.cjs) is what every built
// `wq` command and worker loads: it must hold every part of BullMQ the project uses (the source,
// under vitest, loads all of BullMQ from node_modules, so a part left out would only show
// in a built run), be ASCII only (the loader reads it as Latin-1), and come with the code cache
// made from it, not from a bundle before it.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as bullmqFromNodeModules from 'bullmq';
import * as built from '../dist/client/redis-libraries.js';

const BUNDLE = new URL('../dist/vendor/redis-libraries.cjs', import.meta.url);
/** The parts the source's type lets code use (redis-libraries.ts's `BullMQ`). */
type Part = keyof typeof built.bullmq;
const PARTS = [
  'Queue',
  'Worker',
  'FlowProducer',
  'QueueEvents',
  'UnrecoverableError',
  'DelayedError',
  'WaitingError',
  'MetricsTime',
] as const satisfies readonly Part[];
// Every part the type names is listed here (the typecheck fails otherwise), so the bundle is
// held to the type.
const everyPart: [Exclude<Part, (typeof PARTS)[number]>] extends [never] ? true : never = true;

describe('the bundle of the Redis libraries', () => {
  it('holds every part of BullMQ the project uses, as BullMQ exports it', () => {
    expect(everyPart).toBe(true);
    const bundled = createRequire(import.meta.url)(BUNDLE.pathname) as {
      bullmq: Record<string, unknown>;
    };
    expect(Object.keys(bundled.bullmq).sort()).toEqual([...PARTS].sort());
    for (const part of PARTS) {
      // Same source, another copy: the same kind of value under the same name.
      expect(typeof bundled.bullmq[part]).toBe(typeof bullmqFromNodeModules[part]);
      expect(bundled.bullmq[part]).toBeTruthy();
    }
    expect(bundled.bullmq.MetricsTime).toEqual(bullmqFromNodeModules.MetricsTime);
  });

  it('is loaded by the built loader, with both libraries', () => {
    expect(typeof built.bullmq.Queue).toBe('function');
    expect(typeof built.ioredis.Redis).toBe('function');
  });

  it('is ASCII only', () => {
    const bytes = readFileSync(BUNDLE);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('has a code cache no older than itself', () => {
    const cache = statSync(new URL('redis-libraries.cjs.v8-cache', BUNDLE));
    expect(cache.mtimeMs).toBeGreaterThanOrEqual(statSync(BUNDLE).mtimeMs);
  });
});
