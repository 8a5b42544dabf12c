// Results that move: a sweep computed on one Redis is exported (`wq results --export`) and
// imported into a fresh Redis (`wq results --import`), where it shows complete and a sweep of
// the same sizes counts nothing. A file with a bad line is refused whole, each bad line named.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineClient, ResultSeal, unitMessage } from '@weak-queens/shared/client';
import {
  CLASSIC_QUEENS,
  compileConfig,
  knownSums,
  parseUnitResult,
  UNIQUE_QUEENS,
} from '@weak-queens/shared/contracts';
import { classicUnits } from '@weak-queens/shared/kernel';
import {
  startTestRedis,
  startWorker,
  stopWorkers,
  type TestRedis,
  uniquePrefix,
} from './src/index.js';
import { runWq, type WqRun } from './src/wq-cli.js';

const NS = Array.from({ length: 10 }, (_, i) => i + 1);

/** The secret both stores share (as a Compose stack's WQ_RESULT_KEY would). */
const KEY = 'transfer-test-key-0123456789abcdef';
const keyed = { WQ_RESULT_KEY: KEY };

/** A unit line signed with the shared key (as a worker holding it would sign it). */
function sealedUnit(line: Record<string, unknown>): string {
  const fields = { ...line };
  delete fields.problem;
  delete fields.mac;
  const unit = parseUnitResult(fields);
  return JSON.stringify({ ...line, mac: new ResultSeal(KEY).mac(unitMessage(unit)) });
}

/** The lines of a file, each a parsed JSON object. */
function objects(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('when results move from one Redis to another', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wq-transfer-'));
  const file = join(dir, 'results.jsonl');
  const prefix = uniquePrefix('transfer');
  let source: TestRedis;
  let target: TestRedis;
  let workers: ChildProcess[] = [];

  beforeAll(async () => {
    [source, target] = await Promise.all([startTestRedis(), startTestRedis()]);
  });

  /** `wq <args>` against the target Redis under `keyPrefix`, with the key unless `env` says else. */
  const onTarget = (
    args: readonly string[],
    keyPrefix: string,
    env: Record<string, string> = keyed,
  ): Promise<WqRun> => runWq(args, { url: target.url, prefix: keyPrefix, ...env });

  /** S(1..10) as `wq results 1-10 --json` shows them from the target (null where missing). */
  const shownSums = async (keyPrefix: string, env?: Record<string, string>): Promise<unknown[]> =>
    objects((await onTarget(['results', '1-10', '--json'], keyPrefix, env)).stdout).map((l) => l.S);

  afterAll(async () => {
    await stopWorkers(workers);
    await Promise.all([source?.stop(), target?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports a finished sweep with its provenance and imports it exactly, nothing recounted', async () => {
    workers = [startWorker({ url: source.url, prefix, env: keyed })];
    const computed = await runWq(['sweep', '1-10', '--wait', '--json'], {
      url: source.url,
      prefix,
      ...keyed,
    });
    expect(computed.code, computed.stderr).toBe(0);
    await stopWorkers(workers);

    const exported = await runWq(['results', '--export', file], {
      url: source.url,
      prefix,
      ...keyed,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // Every line says what it counts and how: the problem, the kind, the worker and algorithm.
    const sums = lines.filter((l) => l.kind === 'sum');
    expect(sums.map((l) => [l.n, l.S])).toEqual([...knownSums(NS)]);
    for (const l of lines) {
      expect(l.problem).toBe('weak');
      if (l.kind === 'unit') {
        expect(typeof l.worker).toBe('string');
        expect(typeof l.algorithm).toBe('string');
        expect(typeof l.seconds).toBe('number');
      }
    }

    // Every record carries its MAC under the shared key.
    expect(lines.every((l) => typeof l.mac === 'string' && /^[0-9a-f]{64}$/.test(l.mac))).toBe(
      true,
    );

    const imported = await onTarget(['results', '--import', file], prefix);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^imported 10 S\(n\), 55 N\(n, D\), \d+ units/);

    // Complete there: the results, and a sweep that adds no job and begins no unit.
    expect(await shownSums(prefix)).toEqual([...knownSums(NS).values()]);
    const client = new PipelineClient(
      compileConfig({ REDIS_URL: target.url, WQ_PREFIX: prefix, WQ_RESULT_KEY: KEY }),
    );
    try {
      const submission = await client.submit(NS);
      expect(submission.added).toBe(0);
      expect(submission.sizes.every((s) => s.outcome === 'stored')).toBe(true);
      expect(await client.store.counters()).toEqual({ starts: 0, duplicates: 0 });
    } finally {
      await client.close();
    }

    // Imported again: every line is already there with the same value; nothing changes.
    const again = await onTarget(['results', '--import', file], prefix);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/\(\d+ already stored with the same value\)/);
  });

  it('refuses a file with bad lines, naming each line and why, and writes nothing', async () => {
    const good = readFileSync(file, 'utf8').trim().split('\n');
    // A unit line other than the first (which becomes malformed below).
    const unitLine = good.findIndex(
      (l, i) => i > 0 && (JSON.parse(l) as { kind: string }).kind === 'unit',
    );
    const depthOf = (n: number, d: number): number =>
      good.findIndex((l) => {
        const v = JSON.parse(l) as { kind: string; n: number; depth: number };
        return v.kind === 'depth' && v.n === n && v.depth === d;
      });
    const bad = [...good];
    bad[0] = '{"not json';
    // N(10, 0) = 10^10: one more disagrees with the published value.
    const d0 = depthOf(10, 0);
    bad[d0] = (bad[d0] ?? '').replace('"value":"10000000000"', '"value":"10000000001"');
    bad[unitLine] = (bad[unitLine] ?? '').replace('"problem":"weak"', '"problem":"chess"');
    const badFile = join(dir, 'bad.jsonl');
    writeFileSync(badFile, bad.join('\n') + '\n');

    const fresh = uniquePrefix('transfer-bad');
    const refused = await onTarget(['results', '--import', badFile], fresh);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('import refused, nothing written');
    expect(refused.stderr).toContain('line 1: not JSON');
    expect(refused.stderr).toContain(
      `line ${d0 + 1}: N(10, 0) = 10000000001 disagrees with the published 10000000000`,
    );
    expect(refused.stderr).toContain(`line ${unitLine + 1}: problem: "chess" is not allowed`);
    expect(await shownSums(fresh)).toEqual(NS.map(() => null));

    // A value that conflicts with the store: the target holds the good sweep under `prefix`.
    const conflicting = good.map((l) => {
      const v = JSON.parse(l) as {
        kind: string;
        n: number;
        depth: number;
        unit: string;
        value: string;
      };
      if (v.kind === 'unit' && v.n === 9 && v.depth === 3) {
        // Signed again with the key, as a buggy worker that holds it would have signed it.
        return sealedUnit({ ...v, value: (BigInt(v.value) + 1n).toString() });
      }
      return l;
    });
    const conflictFile = join(dir, 'conflict.jsonl');
    writeFileSync(conflictFile, conflicting.join('\n') + '\n');
    const conflict = await onTarget(['results', '--import', conflictFile], prefix);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(
      /line \d+: unit \S+ of N\(9, 3\) is \d+ here but \d+ in the store/,
    );
  });

  it('without the key, imports no N(n, D) or S(n) unless told --trust, then exactly', async () => {
    const unkeyed = uniquePrefix('transfer-unkeyed');
    const refused = await onTarget(['results', '--import', file], unkeyed, {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "not authenticated (WQ_RESULT_KEY is not set here): set WQ_RESULT_KEY to the exporting store's key, or import with --trust",
    );
    expect(refused.stderr.split('\n').filter((l) => l.includes('Error:'))).toEqual([]);

    const trusted = await onTarget(['results', '--import', file, '--trust'], unkeyed, {});
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(await shownSums(unkeyed, {})).toEqual([...knownSums(NS).values()]);
  });

  it('says so, with exit 1, when nothing is stored for the sizes asked, in every form', async () => {
    const empty = uniquePrefix('transfer-empty');
    const json = await onTarget(['results', '13', '--json'], empty);
    expect(json).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ n: 13, S: null, N: Array(13).fill(null) })}\n`,
      stderr: 'wq results: nothing stored for n = 13\n',
    });
    const csv = await onTarget(['results', '2-3', '--csv'], empty);
    expect(csv).toEqual({
      code: 1,
      stdout: 'n,D,value\n2,0,\n2,1,\n2,S,\n3,0,\n3,1,\n3,2,\n3,S,\n',
      stderr: 'wq results: nothing stored for n = 2..3\n',
    });
    const exported = await onTarget(['results', '--export', '-'], empty);
    expect(exported).toEqual({ code: 1, stdout: '', stderr: 'wq results: nothing stored\n' });
    const classic = await onTarget(['results', '9', '--problem', 'classic', '--json'], empty);
    expect(classic).toEqual({
      code: 1,
      stdout: '{"n":9,"Q":null,"unique":null}\n',
      stderr: 'wq results: nothing stored for n = 9\n',
    });
    // One n stored among those asked is a result: exit 0, the others shown as missing.
    const some = await onTarget(['results', '10,13', '--json'], prefix);
    expect([some.code, some.stderr]).toEqual([0, '']);
    expect(objects(some.stdout).map((l) => [l.n, l.S])).toEqual([
      [10, knownSums(NS).get(10)],
      [13, null],
    ]);
  });

  it('refuses a file that moves 1000 from N(10, 5) to N(10, 6) with S(10) unchanged', async () => {
    const shifted = objects(readFileSync(file, 'utf8')).map((l) => {
      const move = (depth: unknown, value: string): string =>
        depth === 5
          ? (BigInt(value) - 1000n).toString()
          : depth === 6
            ? (BigInt(value) + 1000n).toString()
            : value;
      if (l.kind === 'depth' && l.n === 10 && l.role === undefined) {
        return { ...l, value: move(l.depth, l.value as string) };
      }
      if (l.kind === 'sum' && l.n === 10) {
        const depths = (l.depths as { depth: number; value: string }[]).map((d) => ({
          ...d,
          value: move(d.depth, d.value),
        }));
        return { ...l, depths };
      }
      return l;
    });
    const shiftedFile = join(dir, 'shifted.jsonl');
    writeFileSync(shiftedFile, shifted.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const fresh = uniquePrefix('transfer-shifted');
    const withKey = await onTarget(['results', '--import', shiftedFile], fresh);
    expect(withKey.code).toBe(2);
    expect(withKey.stderr).toContain(
      'its MAC does not verify under this WQ_RESULT_KEY (forged, or another key)',
    );
    const withoutKey = await onTarget(['results', '--import', shiftedFile], fresh, {});
    expect(withoutKey.code).toBe(2);
    expect(withoutKey.stderr).toContain('not authenticated (WQ_RESULT_KEY is not set here)');
    const shown = await onTarget(['results', '10', '--json'], fresh, {});
    expect((JSON.parse(shown.stdout.trim()) as { S: unknown }).S).toBeNull();
  });

  it('keeps units of an unfinished n unverified until they are counted again', async () => {
    // The units of n = 9 alone, from a store without a key (no MACs), one of them forged.
    const units = objects(readFileSync(file, 'utf8')).filter(
      (l) => l.kind === 'unit' && l.n === 9 && l.role === undefined,
    );
    const forged = units.findIndex((l) => l.depth === 4);
    const partial = units.map((l, i) => {
      const rest = { ...l };
      delete rest.mac;
      return i === forged
        ? { ...rest, value: (BigInt(rest.value as string) + 100n).toString() }
        : rest;
    });
    const partialFile = join(dir, 'partial.jsonl');
    writeFileSync(partialFile, partial.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const fresh = uniquePrefix('transfer-partial');
    const imported = await onTarget(['results', '--import', partialFile], fresh);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `; ${partial.length} units unverified (no MAC this store verifies): each is counted again before it enters a sum`,
    );

    workers = [startWorker({ url: target.url, prefix: fresh, env: keyed })];
    const swept = await onTarget(['sweep', '9', '--wait', '--json'], fresh);
    await stopWorkers(workers);
    expect(swept.code, swept.stderr).toBe(0);
    const client = new PipelineClient(
      compileConfig({ REDIS_URL: target.url, WQ_PREFIX: fresh, WQ_RESULT_KEY: KEY }),
    );
    try {
      expect((await client.results([9]))[0]?.S).toBe(knownSums([9]).get(9));
      // Every imported unit was counted again; the forged one is reported, not summed.
      expect((await client.store.counters()).starts).toBeGreaterThanOrEqual(partial.length);
      const noted = await client.store.disagreements();
      expect(noted.map((d) => [d.n, d.depth, d.unit, d.stored, d.reason])).toEqual([
        [
          9,
          4,
          partial[forged]?.unit,
          partial[forged]?.value,
          'an unverified import held this value; the count replaced it',
        ],
      ]);
    } finally {
      await client.close();
    }
  });

  it('moves a classic sweep too: its units and Q(n) imported exactly, bad lines refused by number', async () => {
    const classicPrefix = uniquePrefix('transfer-classic');
    const env = { url: source.url, prefix: classicPrefix };
    workers = [startWorker(env)];
    const computed = await runWq(['sweep', '9-10', '--problem', 'classic', '--wait'], env);
    expect(computed.code, computed.stderr).toBe(0);
    await stopWorkers(workers);
    const classicFile = join(dir, 'classic.jsonl');
    const exported = await runWq(
      ['results', '9-10', '--problem', 'classic', '--export', classicFile],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const good = readFileSync(classicFile, 'utf8').trim().split('\n');
    const units = classicUnits(9).length + classicUnits(10).length;
    expect(good).toHaveLength(units + 2);

    // A classic file is not a weak one: the weak import says which flag it needs.
    const target9 = { url: target.url, prefix: classicPrefix };
    const asWeak = await runWq(['results', '--import', classicFile], target9);
    expect(asWeak.code).toBe(2);
    expect(asWeak.stderr).toContain('a classic export imports with --problem classic');

    // Unkeyed, nobody vouches for Q(n): refused unless the user says --trust (as for S(n)).
    const q9Line = 1 + classicUnits(9).length;
    const unvouched = await runWq(
      ['results', '--problem', 'classic', '--import', classicFile],
      target9,
    );
    expect(unvouched.code).toBe(2);
    const unauthenticated =
      "not authenticated (WQ_RESULT_KEY is not set here): set WQ_RESULT_KEY to the exporting store's key, or import with --trust";
    expect(unvouched.stderr).toBe(
      `wq results: ${classicFile}: import refused, nothing written (2 bad lines)\n` +
        `  line ${q9Line}: ${unauthenticated}\n` +
        `  line ${units + 2}: ${unauthenticated}\n`,
    );
    const imported = await runWq(
      ['results', '--problem', 'classic', '--import', classicFile, '--trust'],
      target9,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      `imported 2 Q(n), ${units} units (0 already stored with the same counts)\n`,
    );
    const shown = await runWq(['results', '9-10', '--problem', 'classic', '--json'], target9);
    expect(shown.stdout).toBe(
      `{"n":9,"Q":"${CLASSIC_QUEENS[8]}","unique":"${UNIQUE_QUEENS[8]}"}\n` +
        `{"n":10,"Q":"${CLASSIC_QUEENS[9]}","unique":"${UNIQUE_QUEENS[9]}"}\n`,
    );
    const client = new PipelineClient(
      compileConfig({ REDIS_URL: target.url, WQ_PREFIX: classicPrefix }),
    );
    try {
      const again = await client.submitClassic([9, 10]);
      expect(again.sizes.map((s) => s.outcome)).toEqual(['stored', 'stored']);
    } finally {
      await client.close();
    }

    // One unit's subtotal changed, and Q(10) changed: refused, each by its line, nothing written.
    const bad = [...good];
    const unitLine = good.findIndex((l) => (JSON.parse(l) as { n: number }).n === 9);
    const unit = JSON.parse(bad[unitLine] ?? '{}') as { boards: string };
    bad[unitLine] = JSON.stringify({ ...unit, boards: String(BigInt(unit.boards) + 8n) });
    const q10 = good.findIndex(
      (l) =>
        (JSON.parse(l) as { kind: string; n: number }).kind === 'classic' &&
        (JSON.parse(l) as { n: number }).n === 10,
    );
    bad[q10] = (bad[q10] ?? '').replace(`"Q":"${CLASSIC_QUEENS[9]}"`, '"Q":"725"');
    const q9 = good.findIndex(
      (l) =>
        (JSON.parse(l) as { kind: string; n: number }).kind === 'classic' &&
        (JSON.parse(l) as { n: number }).n === 9,
    );
    const badFile = join(dir, 'classic-bad.jsonl');
    writeFileSync(badFile, bad.join('\n') + '\n');
    const fresh = { url: target.url, prefix: uniquePrefix('transfer-classic-bad') };
    const refused = await runWq(
      ['results', '--problem', 'classic', '--import', badFile, '--trust'],
      fresh,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('import refused, nothing written (2 bad lines)');
    expect(refused.stderr).toContain(
      `line ${q9 + 1}: Q(9) = ${CLASSIC_QUEENS[8]} (unique ${UNIQUE_QUEENS[8]}), but its ${classicUnits(9).length} units add up to ${BigInt(CLASSIC_QUEENS[8] ?? 0) + 8n}`,
    );
    expect(refused.stderr).toContain(
      `line ${q10 + 1}: Q(10) = 725 disagrees with the published ${CLASSIC_QUEENS[9]} (OEIS A000170)`,
    );
    const none = await runWq(['results', '9-10', '--problem', 'classic', '--json'], fresh);
    expect(none).toEqual({
      code: 1,
      stdout: '{"n":9,"Q":null,"unique":null}\n{"n":10,"Q":null,"unique":null}\n',
      stderr: 'wq results: nothing stored for n = 9..10\n',
    });

    // The changed unit against the store that holds the good one: a conflict.
    const conflictFile = join(dir, 'classic-conflict.jsonl');
    writeFileSync(conflictFile, [bad[unitLine]].join('\n') + '\n');
    const conflict = await runWq(
      ['results', '--problem', 'classic', '--import', conflictFile],
      target9,
    );
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(
      /line 1: unit \S+ of Q\(9\) counts \d+ boards in \d+ classes here but \d+ boards/,
    );
  }, 60_000);
});
