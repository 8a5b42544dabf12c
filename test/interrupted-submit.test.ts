// A signal while `wq sweep 1-13 --wait` is queuing its flows: the sweep record exists from before
// the first job and says which n were queued, `wq status` shows the sweep as interrupted with the
// n never queued, and `wq retry` queues exactly those, after which every S(n) is exact.
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { exitOf } from '@weak-queens/producer';
import { parseSweepRecord, type StatusReport, type SweepRecord } from '@weak-queens/shared/client';
import { KNOWN_S, storeKeys } from '@weak-queens/shared/contracts';
import { pipelineFixture, until } from './src/index.js';
import { runWq, wqBinary } from './src/wq-cli.js';

const NS = Array.from({ length: 13 }, (_, i) => i + 1);

const redis = pipelineFixture();

describe.each(['SIGINT', 'SIGHUP'] as const)(
  'when `wq sweep --wait` gets %s while queuing',
  (signal) => {
    it('leaves a recorded sweep, shown as interrupted, that wq retry finishes exactly', async () => {
      const pipeline = redis.openPipeline(`interrupt-${signal}`);
      const { client, prefix } = pipeline;
      const env = { url: redis.url, prefix };
      const keys = storeKeys(prefix);
      const probe = new Redis(redis.url);
      pipeline.defer(() => probe.quit());
      // Another submitter holds n = 10, so this one queues n = 1..9 and then waits: the signal
      // comes at a known point, not by a race.
      await probe.set(keys.submitLock(10), 'another-submitter', 'PX', 120_000);
      const sweep = spawn(process.execPath, [wqBinary(), 'sweep', '1-13', '--wait'], {
        env: { ...process.env, REDIS_URL: redis.url, WQ_PREFIX: prefix, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      let record: SweepRecord | undefined;
      await until(
        'n = 1..9 to be recorded as queued',
        async () => {
          const [id] = await probe.zrange(keys.sweeps, 0, -1);
          const json = id === undefined ? null : await probe.get(keys.sweep(id));
          record = json === null ? undefined : parseSweepRecord(JSON.parse(json));
          return record?.queued?.length === 9;
        },
        120_000,
      );
      sweep.kill(signal);
      await exitOf(sweep);
      const id = record?.id ?? '';
      expect(record?.ns).toEqual(NS);
      expect(record?.queued).toEqual(NS.slice(0, 9));
      expect(record?.submittedAt).toBe(undefined);

      // Once the dead submitter's mark lapses (seconds), status says what happened.
      let status = { code: -1, stdout: '', stderr: '' };
      await until(
        'wq status to show the interrupted sweep',
        async () => {
          status = await runWq(['status'], env);
          return status.stdout.includes('interrupted while queuing');
        },
        60_000,
      );
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(
        [10, 11, 12, 13].map((n) => `\n  n = ${n}  not queued`).join('') +
          `\n  interrupted while queuing: n = 10..13 not queued; wq retry ${id} finishes it\n`,
      );
      expect(status.stdout).not.toContain('cancelled');
      const json = await runWq(['status', '--json'], env);
      const report = JSON.parse(json.stdout) as StatusReport;
      expect(report.sweeps.map((s) => [s.sweep.id, s.notQueued])).toEqual([
        [id, { ns: [10, 11, 12, 13], interrupted: true }],
      ]);
      expect(report.sweeps[0]?.sizes.map((s) => s.state)).toEqual([
        ...NS.slice(0, 9).map(() => 'queued'),
        ...NS.slice(9).map(() => 'cancelled'),
      ]);

      // The other submitter is gone; the retry adds n = 10..13 and leaves n = 1..9 as queued.
      await probe.del(keys.submitLock(10));
      const before = await client.jobTotal();
      const retry = await runWq(['retry', id], env);
      expect(retry.code, retry.stderr).toBe(0);
      const added = Number(/(\d+) jobs added again/.exec(retry.stdout)?.[1]);
      expect(added).toBeGreaterThanOrEqual(4);
      expect(await client.jobTotal()).toBe(before + added);

      pipeline.startWorkers(2);
      const done = await client.waitFor(id);
      expect(done.sizes.map((s) => s.S)).toEqual(KNOWN_S.slice(0, 13));
      const finished = await client.registry.get(id);
      expect([...(finished.queued ?? [])].sort((a, b) => a - b)).toEqual(NS);
      expect(finished.submittedAt).toEqual(expect.any(String));
      const after = await runWq(['status'], env);
      expect(after.stdout).not.toContain('not queued');
    }, 400_000);
  },
);
