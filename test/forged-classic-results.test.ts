// The classic problem's store under WQ_RESULT_KEY: a unit or Q(n) written straight into Redis
// by someone without the key is not shown or summed, is kept aside as a forgery, and is
// counted again; exports carry the MACs and imports check them. Real workers, a real Redis.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { classicResultMessage, classicUnitMessage, ResultSeal } from '@weak-queens/shared/client';
import {
  CLASSIC_QUEENS,
  classicStoreKeys,
  parseClassicResult,
  parseClassicUnitResult,
  UNIQUE_QUEENS,
} from '@weak-queens/shared/contracts';
import { classicUnitKey, classicUnits } from '@weak-queens/shared/kernel';
import { pipelineFixture, type TestPipeline } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const redis = pipelineFixture();
const KEY = 'forged-classic-test-key-0123456789';
const keyed = { WQ_RESULT_KEY: KEY };
const dir = mkdtempSync(join(tmpdir(), 'wq-forged-classic-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `wq` on this pipeline's Redis and prefix, with the key unless `env` says otherwise. */
function wq(p: TestPipeline, args: string[], env: Record<string, string> = keyed) {
  return runWq(args, { url: p.url, prefix: p.prefix, ...env });
}

async function shownQ(p: TestPipeline, n: number, env: Record<string, string> = keyed) {
  const shown = await wq(p, ['results', String(n), '--problem', 'classic', '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout.trim()) as { n: number; Q: string | null; unique: string | null };
}

/** `wq results n --problem classic --json` with nothing to show: Q(n) missing, exit 1 and why. */
async function expectNothingShown(
  p: TestPipeline,
  n: number,
  why: string,
  env: Record<string, string> = keyed,
) {
  const shown = await wq(p, ['results', String(n), '--problem', 'classic', '--json'], env);
  expect(shown).toEqual({
    code: 1,
    stdout: `${JSON.stringify({ n, Q: null, unique: null })}\n`,
    stderr: `wq results: ${why}\n`,
  });
}

/** Why nothing is shown of an n whose stored Q(n) is not a result here. */
const notBorneOut = (n: number): string =>
  `nothing shown for n = ${n}: what is stored for n = ${n} is not borne out (edited, forged, or signed under another WQ_RESULT_KEY or none; see wq status), and a sweep of it counts it again`;

/** A keyed pipeline with Q(10) counted by two workers, and a plain connection to its Redis. */
async function countedQ10(label: string): Promise<{ p: TestPipeline; r: Redis }> {
  const p = redis.openPipeline(label, { env: keyed });
  p.startWorkers(2, { env: keyed });
  const swept = await wq(p, ['sweep', '10', '--problem', 'classic', '--wait']);
  expect(swept.code, swept.stderr).toBe(0);
  const r = new Redis(p.url);
  p.defer(() => r.disconnect());
  return { p, r };
}

describe('when classic records are written straight into a keyed store', () => {
  it('shows and sums neither, keeps them aside as forgeries, and counts them again exactly', async () => {
    const { p, r } = await countedQ10('forged-classic');
    expect(await shownQ(p, 10)).toEqual({ n: 10, Q: CLASSIC_QUEENS[9], unique: UNIQUE_QUEENS[9] });
    const keys = classicStoreKeys(p.prefix);
    const [first, second] = classicUnits(10).map(classicUnitKey);
    const unitOf = async (key: string) =>
      parseClassicUnitResult(JSON.parse((await r.hget(keys.units(10), key ?? '')) ?? '{}'));
    const honest = await unitOf(first ?? '');
    expect(new ResultSeal(KEY).verifies(classicUnitMessage(honest), honest.mac)).toBe(true);
    // One unit raised by 8 boards under its old MAC, one rewritten with no MAC at all, and a
    // Q(10) of 725 (unique 93) with no MAC: what someone with Redis write access can do.
    const raised = { ...honest, boards: String(BigInt(honest.boards) + 8n) };
    await r.hset(keys.units(10), first ?? '', JSON.stringify(raised));
    const other = await unitOf(second ?? '');
    const unsigned: Record<string, unknown> = { ...other, classes: '0' };
    delete unsigned.mac;
    await r.hset(keys.units(10), second ?? '', JSON.stringify(unsigned));
    const stored = parseClassicResult(JSON.parse((await r.hget(keys.results, '10')) ?? '{}'));
    const forgedQ: Record<string, unknown> = { ...stored, Q: '725', unique: '93' };
    delete forgedQ.mac;
    await r.hset(keys.results, '10', JSON.stringify(forgedQ));

    await expectNothingShown(p, 10, notBorneOut(10));
    const units = await p.client.classic.units(10);
    expect(units.size).toBe(classicUnits(10).length - 2);
    expect(units.has(first ?? '')).toBe(false);
    expect(units.has(second ?? '')).toBe(false);

    // The next sweep counts the two units again and publishes exactly, signed.
    const again = await wq(p, ['sweep', '10', '--problem', 'classic', '--wait']);
    expect(again.code, again.stderr).toBe(0);
    expect(await shownQ(p, 10)).toEqual({ n: 10, Q: CLASSIC_QUEENS[9], unique: UNIQUE_QUEENS[9] });
    expect((await unitOf(first ?? '')).boards).toBe(honest.boards);
    expect((await unitOf(second ?? '')).classes).toBe(other.classes);
    const published = parseClassicResult(JSON.parse((await r.hget(keys.results, '10')) ?? '{}'));
    expect(new ResultSeal(KEY).verifies(classicResultMessage(published), published.mac)).toBe(true);
    const forgeries = await p.client.classic.forgeries();
    expect([...forgeries.keys()].sort()).toEqual(
      [`10:primary:${first}`, `10:primary:${second}`, '10:Q'].sort(),
    );
    expect(JSON.parse(forgeries.get('10:Q') ?? '{}')).toEqual(forgedQ);
    expect(await p.client.classic.disagreements()).toEqual(new Map());
  });

  it('without the key, the same store reads as it did: records carry no MAC to check', async () => {
    const p = redis.openPipeline('unkeyed-classic');
    p.startWorkers(1);
    const swept = await wq(p, ['sweep', '9', '--problem', 'classic', '--wait'], {});
    expect(swept.code, swept.stderr).toBe(0);
    expect(await shownQ(p, 9, {})).toEqual({
      n: 9,
      Q: CLASSIC_QUEENS[8],
      unique: UNIQUE_QUEENS[8],
    });
    const units = await p.client.classic.units(9);
    expect(units.size).toBe(classicUnits(9).length);
    expect([...units.values()].filter((u) => u.mac !== undefined)).toEqual([]);
    // A keyed reader of the same prefix takes none of them as results.
    await expectNothingShown(p, 9, notBorneOut(9));
  });
});

describe('when classic results move between keyed stores', () => {
  it('carries the MACs, imports them as results, and refuses a forged or unsigned line', async () => {
    const { p } = await countedQ10('classic-export');
    const file = join(dir, 'q10.jsonl');
    const exported = await wq(p, ['results', '10', '--problem', 'classic', '--export', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const unitCount = classicUnits(10).length;
    expect(lines).toHaveLength(unitCount + 1);
    expect(lines.every((l) => /"mac":"[0-9a-f]{64}"/.test(l))).toBe(true);

    const target = redis.openPipeline('classic-import', { env: keyed });
    const imported = await wq(target, ['results', '--problem', 'classic', '--import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      `imported 1 Q(n), ${unitCount} units (0 already stored with the same counts)\n`,
    );
    expect(await shownQ(target, 10)).toEqual({
      n: 10,
      Q: CLASSIC_QUEENS[9],
      unique: UNIQUE_QUEENS[9],
    });
    expect((await target.client.classic.units(10)).size).toBe(unitCount);

    // A unit's boards changed under its MAC, and Q(10) with its MAC removed: both refused.
    const bad = [...lines];
    const unit = JSON.parse(bad[0] ?? '{}') as { boards: string };
    bad[0] = JSON.stringify({ ...unit, boards: String(BigInt(unit.boards) + 8n) });
    const q: Record<string, unknown> = JSON.parse(bad[unitCount] ?? '{}') as Record<
      string,
      unknown
    >;
    delete q.mac;
    bad[unitCount] = JSON.stringify(q);
    const badFile = join(dir, 'q10-bad.jsonl');
    writeFileSync(badFile, bad.join('\n') + '\n');
    const fresh = redis.openPipeline('classic-import-bad', { env: keyed });
    const refused = await wq(fresh, ['results', '--problem', 'classic', '--import', badFile]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('import refused, nothing written (2 bad lines)');
    expect(refused.stderr).toContain(
      'line 1: its MAC does not verify under this WQ_RESULT_KEY (forged, or another key)',
    );
    expect(refused.stderr).toContain(
      `line ${unitCount + 1}: not authenticated (it carries no MAC): set WQ_RESULT_KEY to the ` +
        "exporting store's key, or import with --trust",
    );
    await expectNothingShown(fresh, 10, 'nothing stored for n = 10');

    // Units alone without MACs: imported unverified, then each counted again before Q(10).
    const unsigned = lines.slice(0, unitCount).map((l) => {
      const fields = JSON.parse(l) as Record<string, unknown>;
      delete fields.mac;
      return JSON.stringify(fields);
    });
    const unsignedFile = join(dir, 'q10-unsigned.jsonl');
    writeFileSync(unsignedFile, unsigned.join('\n') + '\n');
    const later = redis.openPipeline('classic-import-unsigned', { env: keyed });
    const partly = await wq(later, ['results', '--problem', 'classic', '--import', unsignedFile]);
    expect(partly.code, partly.stderr).toBe(0);
    expect(partly.stdout).toBe(
      `imported 0 Q(n), ${unitCount} units (0 already stored with the same counts); ` +
        `${unitCount} units unverified (no MAC this store verifies): each is counted again before it enters a sum\n`,
    );
    expect((await later.client.classic.units(10)).size).toBe(0);
    later.startWorkers(1, { env: keyed });
    const recounted = await wq(later, ['sweep', '10', '--problem', 'classic', '--wait']);
    expect(recounted.code, recounted.stderr).toBe(0);
    expect(await shownQ(later, 10)).toEqual({
      n: 10,
      Q: CLASSIC_QUEENS[9],
      unique: UNIQUE_QUEENS[9],
    });
    expect((await later.client.classic.units(10)).size).toBe(unitCount);
  });
});
