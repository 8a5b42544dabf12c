// A Redis that cannot write to its disk (MISCONF: here its snapshot failed, as a full disk makes
// it fail) still serves reads: `wq results` and `wq status` answer, saying once that Redis cannot
// write; a command that must write fails with one line naming the disk, not as an outage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_S } from '@weak-queens/shared/contracts';
import { RedisServer } from '@weak-queens/shared/process';
import { startWorker, stopWorkers, uniquePrefix, until } from './src/index.js';
import { runWq, sumsOf } from './src/wq-cli.js';

const DISK =
  /^wq (results|status|sweep): Redis cannot write to its disk and refuses writes \(MISCONF /;

describe('when Redis cannot write to its disk', () => {
  let server: RedisServer;
  let dir: string;
  const prefix = uniquePrefix('disk');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wq-disk-'));
    // Snapshots on (stop-writes-on-bgsave-error is Redis's default), and `dir` settable.
    server = await RedisServer.start({
      dir,
      appendOnly: false,
      extraArgs: ['--save', '3600 1', '--enable-protected-configs', 'yes'],
    });
    const worker = startWorker({ url: server.url, prefix });
    try {
      const swept = await runWq(['sweep', '1-6', '--wait'], { url: server.url, prefix });
      expect(swept.code, swept.stderr).toBe(0);
    } finally {
      await stopWorkers([worker]);
    }
    // A snapshot into a directory that is gone fails: Redis then refuses writes (MISCONF).
    const gone = mkdtempSync(join(tmpdir(), 'wq-disk-gone-'));
    const admin = new Redis(server.url);
    try {
      await admin.config('SET', 'dir', gone);
      rmSync(gone, { recursive: true });
      await admin.bgsave();
      await until('the snapshot to fail', async () =>
        /rdb_last_bgsave_status:err/.test(await admin.info('persistence')),
      );
    } finally {
      admin.disconnect();
    }
  });
  afterAll(async () => {
    // Somewhere to save again, so that it stops as Redis does.
    const admin = new Redis(server.url);
    await admin.config('SET', 'dir', dir).finally(() => admin.disconnect());
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers wq results and wq status, saying once that Redis cannot write', async () => {
    const results = await runWq(['results', '1-6', '--json'], { url: server.url, prefix });
    expect(results.code, results.stderr).toBe(0);
    expect(sumsOf(results.stdout)).toEqual(KNOWN_S.slice(0, 6));
    const said = results.stderr.trim().split('\n');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(DISK);
    expect(said[0]).toMatch(/\(reading works meanwhile\)$/);

    const status = await runWq(['status'], { url: server.url, prefix });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('n done 6/6');
    expect(status.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('fails a command that must write with the disk named (exit 1), not as an outage', async () => {
    const sweep = await runWq(['sweep', '7', '--wait'], { url: server.url, prefix });
    expect(sweep.code).toBe(1);
    const lines = sweep.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(DISK);
    expect(sweep.stderr).not.toContain('retrying');
  });
});
