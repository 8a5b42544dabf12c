// A sweep that outlives its machine: its worker is killed half way, the finished units are
// exported (signed under the first store's key) and imported into a fresh Redis that lacks the
// key, and `wq sweep --verify` there counts only what is missing, vouches for the imported units
// by its second count, and ends exact. No unit counted before the move is counted again.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_S, storeKeys, type UnitResult } from '@weak-queens/shared/contracts';
import {
  killHard,
  startTestRedis,
  startWorker,
  stopWorkers,
  type TestRedis,
  uniquePrefix,
  until,
} from './src/index.js';
import { runWq } from './src/wq-cli.js';

const N = 14;
const KEY = 'handover-test-key-0123456789abcdef';
/** Small units, counted one at a time, so that a kill finds the sweep part way. */
const SMALL_UNITS = { WQ_TARGET_SECONDS: '0.003' };

/** The primary unit records of n = N in a store, by `${D}/${unit key}`. */
async function primaryUnits(url: string, prefix: string): Promise<Map<string, UnitResult>> {
  const redis = new Redis(url);
  const keys = storeKeys(prefix);
  const found = new Map<string, UnitResult>();
  for (let d = 0; d < N; d++) {
    for (const [unit, json] of Object.entries(await redis.hgetall(keys.units(N, d)))) {
      found.set(`${d}/${unit}`, JSON.parse(json) as UnitResult);
    }
  }
  redis.disconnect();
  return found;
}

describe('when a sweep in progress moves to another machine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wq-handover-'));
  const file = join(dir, `partial-${N}.jsonl`);
  let first: TestRedis;
  let second: TestRedis;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    [first, second] = await Promise.all([startTestRedis(), startTestRedis()]);
  });

  afterAll(async () => {
    await stopWorkers(workers);
    await Promise.all([first?.stop(), second?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes from the export on a fresh Redis without the key and ends exact, nothing counted twice', async () => {
    const prefix = uniquePrefix('handover');
    const onFirst = { url: first.url, prefix, WQ_RESULT_KEY: KEY, ...SMALL_UNITS };
    const doomed = startWorker({
      url: first.url,
      prefix,
      env: { WQ_RESULT_KEY: KEY, WQ_CONCURRENCY: '1', ...SMALL_UNITS },
    });
    workers.push(doomed);
    const submitted = await runWq(['sweep', String(N)], onFirst);
    expect(submitted.code, submitted.stderr).toBe(0);
    // Killed once a good share of the units is stored (the machine taken away).
    await until(
      'a hundred units to be stored',
      async () => {
        return (await primaryUnits(first.url, prefix)).size >= 100;
      },
      60_000,
    );
    await killHard(doomed);
    const before = await primaryUnits(first.url, prefix);
    const shown = await runWq(['results', String(N), '--json'], onFirst);
    expect(
      (JSON.parse(shown.stdout) as { S: unknown }).S,
      'the sweep ended before the kill',
    ).toBeNull();

    const exported = await runWq(['results', String(N), '--export', file], onFirst);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const kinds = lines.map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds.filter((k) => k === 'unit').length).toBe(before.size);
    expect(kinds).toContain('plan');

    // The second machine has no key: the file's N(n, D) cannot be vouched for, its units only
    // as unverified imports.
    const onSecond = { url: second.url, prefix };
    const refused = await runWq(['results', '--import', file], onSecond);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`wq results: ${file}: import refused, nothing written`);
    expect((await primaryUnits(second.url, prefix)).size).toBe(0);
    const imported = await runWq(['results', '--import', file, '--units'], onSecond);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`${before.size} units`);
    expect(imported.stdout).toContain(`${before.size} units unverified`);
    // Unverified, nothing is a result yet.
    const nothingYet = await runWq(['results', String(N), '--json'], onSecond);
    expect((JSON.parse(nothingYet.stdout) as { S: unknown }).S).toBeNull();

    workers.push(startWorker({ url: second.url, prefix, env: SMALL_UNITS }));
    const resumed = await runWq(['sweep', String(N), '--verify', '--wait', '--json'], {
      ...onSecond,
      ...SMALL_UNITS,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as { S: string }).S).toBe(KNOWN_S[N - 1]);

    // Every unit counted on the first machine is there as it was counted (same worker, same
    // value), now vouched for; the second machine counted only the rest.
    const after = await primaryUnits(second.url, prefix);
    for (const [key, unit] of before) {
      const now = after.get(key);
      expect([key, now?.worker, now?.value, now?.unverified]).toEqual([
        key,
        unit.worker,
        unit.value,
        undefined,
      ]);
    }
    expect(after.size).toBeGreaterThan(before.size);
  }, 300_000);

  it('publishes nothing an imported unit got wrong, and retry counts it here', async () => {
    const prefix = uniquePrefix('handover-wrong');
    // One unit of the largest split D one more than it was counted (no key here to catch it).
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const units = lines.map((l) => JSON.parse(l) as UnitResult & { kind: string });
    const victim = units.findLastIndex((u) => u.kind === 'unit' && u.unit !== '*');
    const wrong = units[victim] as UnitResult;
    lines[victim] = JSON.stringify({ ...wrong, value: (BigInt(wrong.value) + 1n).toString() });
    const wrongFile = join(dir, 'wrong.jsonl');
    writeFileSync(wrongFile, lines.join('\n') + '\n');
    const onSecond = { url: second.url, prefix, ...SMALL_UNITS };
    const imported = await runWq(['results', '--import', wrongFile, '--units'], onSecond);
    expect(imported.code, imported.stderr).toBe(0);

    workers.push(startWorker({ url: second.url, prefix, env: SMALL_UNITS }));
    const sweep = await runWq(['sweep', String(N), '--verify', '--wait', '--json'], onSecond);
    expect(sweep.code).toBe(1);
    expect(sweep.stderr).toContain(`S(${N}) not published: N(${N}, ${wrong.depth}): dfs counted`);
    const shown = await runWq(['results', String(N), '--json'], onSecond);
    expect((JSON.parse(shown.stdout) as { S: unknown }).S).toBeNull();

    const id = /sweep (s-[0-9a-z]+)/.exec(sweep.stderr)?.[1] ?? '';
    const retried = await runWq(['retry', id], onSecond);
    expect(retried.code, retried.stderr).toBe(0);
    await until(
      'S(N) after the retry',
      async () => {
        const now = await runWq(['results', String(N), '--json'], onSecond);
        return (JSON.parse(now.stdout) as { S: unknown }).S === KNOWN_S[N - 1];
      },
      120_000,
    );
  }, 300_000);

  it('refuses a partial export signed under another key, naming the file and line, and imports nothing', async () => {
    const prefix = uniquePrefix('handover-forged');
    const forgedFile = join(dir, 'other-key.jsonl');
    writeFileSync(forgedFile, readFileSync(file, 'utf8'));
    const other = { url: second.url, prefix, WQ_RESULT_KEY: 'another-key-0123456789abcdefgh' };
    const refused = await runWq(['results', '--import', forgedFile, '--units'], other);
    expect(refused.code).toBe(2);
    const [head, firstLine] = refused.stderr.split('\n');
    expect(head).toMatch(
      new RegExp(
        `^wq results: ${forgedFile}: import refused, nothing written \\(\\d+ bad lines\\)$`,
      ),
    );
    expect(firstLine).toBe(
      '  line 1: its MAC does not verify under this WQ_RESULT_KEY (forged, or another key)',
    );
    expect((await primaryUnits(second.url, prefix)).size).toBe(0);
  });
});
