// Container limits from fake cgroup trees (a directory laid out as /sys/fs/cgroup is): v2 and v1
// files, "no limit" spellings, and the worker defaults derived from them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultSlotMemory,
  defaultSlots,
  defaultWorkerMemory,
  MACHINE_MEMORY_SHARE,
  readCgroupLimits,
  WORKER_MEMORY_SHARE,
} from '../src/contracts/index.js';

const GiB = 1024 ** 3;
const V1_UNLIMITED = '9223372036854771712';
const roots: string[] = [];

/** A cgroup tree with these files (path → content). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wq-cgroup-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${text}\n`);
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('when the cgroup is v2', () => {
  it('reads memory.max and cpu.max (quota over period)', () => {
    const root = tree({ 'memory.max': String(2 * GiB), 'cpu.max': '150000 100000' });
    expect(readCgroupLimits(root)).toEqual({
      memoryBytes: 2 * GiB,
      cpus: 1.5,
      sources: [join(root, 'memory.max'), join(root, 'cpu.max')],
    });
  });

  it('reads "max" as no limit', () => {
    const root = tree({ 'memory.max': 'max', 'cpu.max': 'max 100000' });
    expect(readCgroupLimits(root)).toEqual({ sources: [] });
  });
});

describe('when the cgroup is v1', () => {
  it('reads memory.limit_in_bytes and the CFS quota of the cpu controller', () => {
    const root = tree({
      'memory/memory.limit_in_bytes': String(512 * 1024 ** 2),
      'cpu/cpu.cfs_quota_us': '100000',
      'cpu/cpu.cfs_period_us': '100000',
    });
    expect(readCgroupLimits(root)).toMatchObject({ memoryBytes: 512 * 1024 ** 2, cpus: 1 });
  });

  it('finds the quota where cpu and cpuacct are mounted together', () => {
    const root = tree({
      'cpu,cpuacct/cpu.cfs_quota_us': '250000',
      'cpu,cpuacct/cpu.cfs_period_us': '100000',
    });
    expect(readCgroupLimits(root)).toMatchObject({ cpus: 2.5 });
  });

  it('reads the largest counter and a quota of -1 as no limit', () => {
    const root = tree({
      'memory/memory.limit_in_bytes': V1_UNLIMITED,
      'cpu/cpu.cfs_quota_us': '-1',
      'cpu/cpu.cfs_period_us': '100000',
    });
    expect(readCgroupLimits(root)).toEqual({ sources: [] });
  });
});

describe('when there is no cgroup to read', () => {
  it('has no limits (a directory without the files, or none at all)', () => {
    expect(readCgroupLimits(tree({}))).toEqual({ sources: [] });
    expect(readCgroupLimits(join(tmpdir(), 'wq-no-such-cgroup'))).toEqual({ sources: [] });
  });

  it('reads unparsable files as no limit rather than failing', () => {
    const root = tree({ 'memory.max': 'lots', 'cpu.max': '100000' });
    expect(readCgroupLimits(root)).toEqual({ sources: [] });
  });
});

describe('when the worker defaults are derived from the limits', () => {
  const cores = availableParallelism();

  it('takes a container limited to 2 GiB and one CPU as 2 GiB and one slot', () => {
    const limits = readCgroupLimits(
      tree({ 'memory.max': String(2 * GiB), 'cpu.max': '100000 100000' }),
    );
    expect(defaultSlots(limits)).toBe(1);
    expect(defaultWorkerMemory(defaultSlots(limits), limits)).toBe(2 * GiB);
    expect(defaultSlotMemory(limits)).toBe(2 * GiB);
  });

  it('takes whole CPUs of a quota, at least one, at most the cores', () => {
    const slots = (cpuMax: string) => defaultSlots(readCgroupLimits(tree({ 'cpu.max': cpuMax })));
    expect(slots('50000 100000')).toBe(1);
    expect(slots('190000 100000')).toBe(1);
    expect(slots('6400000 100000')).toBe(cores);
  });

  it('shares a memory limit among the slots, and gives it whole to the worker', () => {
    const limits = readCgroupLimits(tree({ 'memory.max': String(GiB) }));
    expect(defaultSlots(limits)).toBe(cores);
    expect(defaultSlotMemory(limits)).toBe(Math.floor(GiB / cores));
    expect(defaultWorkerMemory(3, limits)).toBe(GiB);
  });

  it("keeps the host's shares without limits, or with one above the machine's memory", () => {
    const none = readCgroupLimits(tree({}));
    const above = readCgroupLimits(tree({ 'memory.max': String(totalmem() * 2) }));
    for (const limits of [none, above]) {
      expect(defaultSlots(limits)).toBe(cores);
      expect(defaultSlotMemory(limits)).toBe(
        Math.floor((totalmem() * MACHINE_MEMORY_SHARE) / cores),
      );
      expect(defaultWorkerMemory(2, limits)).toBe(
        Math.floor((totalmem() * WORKER_MEMORY_SHARE * 2) / cores),
      );
    }
  });
});
