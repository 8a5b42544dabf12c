// The memory and CPU limits of the container this process runs in, from its cgroup: a worker in
// a container limited to 2 GiB and one CPU must size itself by those, not by the host's totals
// (os.totalmem and os.availableParallelism see the whole machine; the CPU quota is not an
// affinity mask, so availableParallelism misses it). cgroup v2 first, then v1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the container's own cgroup is mounted (Docker, Podman and Kubernetes alike). */
export const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * v1 writes "no limit" as the largest page-aligned counter (9223372036854771712); anything this
 * large is no limit on any machine.
 */
const UNLIMITED_FROM = 2 ** 62;

export interface CgroupLimits {
  /** The memory limit in bytes, when one is set. */
  readonly memoryBytes?: number;
  /** The CPU quota in CPUs (quota ÷ period, may be fractional), when one is set. */
  readonly cpus?: number;
  /** The files they were read from, for logs and errors. */
  readonly sources: readonly string[];
}

/** The first of `paths` (under `root`) that exists, trimmed; undefined when none does. */
function readFirst(
  root: string,
  paths: readonly string[],
): { path: string; text: string } | undefined {
  for (const path of paths) {
    try {
      return { path: join(root, path), text: readFileSync(join(root, path), 'utf8').trim() };
    } catch {
      // Absent on this cgroup version or outside a container: try the next.
    }
  }
  return undefined;
}

/** A positive byte or microsecond count below the "no limit" values, else undefined. */
function limit(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value > 0 && value < UNLIMITED_FROM ? value : undefined;
}

/**
 * The limits under `root`: v2 `memory.max` and `cpu.max` ("<quota> <period>", "max" for none),
 * else v1 `memory/memory.limit_in_bytes` and `cpu/cpu.cfs_quota_us` over `cpu.cfs_period_us`
 * (-1 for none; the controller is mounted as `cpu` or `cpu,cpuacct`). Files that are missing or
 * unreadable mean no limit: outside a container there are none to find.
 */
export function readCgroupLimits(root: string = CGROUP_ROOT): CgroupLimits {
  const sources: string[] = [];
  let memoryBytes: number | undefined;
  const memory = readFirst(root, ['memory.max', 'memory/memory.limit_in_bytes']);
  if (memory) {
    memoryBytes = limit(memory.text);
    if (memoryBytes !== undefined) sources.push(memory.path);
  }

  let cpus: number | undefined;
  const v2 = readFirst(root, ['cpu.max']);
  if (v2) {
    const [quota, period] = v2.text.split(/\s+/);
    cpus = ratio(limit(quota), limit(period));
    if (cpus !== undefined) sources.push(v2.path);
  } else {
    for (const dir of ['cpu', 'cpu,cpuacct']) {
      const quota = readFirst(root, [`${dir}/cpu.cfs_quota_us`]);
      const period = readFirst(root, [`${dir}/cpu.cfs_period_us`]);
      if (!quota || !period) continue;
      cpus = ratio(limit(quota.text), limit(period.text));
      if (cpus !== undefined) sources.push(quota.path, period.path);
      break;
    }
  }
  return {
    ...(memoryBytes === undefined ? {} : { memoryBytes }),
    ...(cpus === undefined ? {} : { cpus }),
    sources,
  };
}

function ratio(quota: number | undefined, period: number | undefined): number | undefined {
  return quota === undefined || period === undefined ? undefined : quota / period;
}
