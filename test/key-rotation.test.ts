// WQ_RESULT_KEY rotated under a store of results signed with the old key: the records that no
// longer verify are said once (not as a forgery each), the next sweep counts them again, and no
// stale disagreement is left once it has: `wq verify` then verifies every n.
import { describe, expect, it } from 'vitest';
import { KNOWN_S } from '@weak-queens/shared/contracts';
import { pipelineFixture, stopWorkers } from './src/index.js';
import { runWq, sumsOf } from './src/wq-cli.js';

const redis = pipelineFixture();
const OLD = 'the key of last year, rotated out';
const NEW = 'the key of this year, rotated in';

describe('when WQ_RESULT_KEY is rotated', () => {
  it('says once what no longer verifies, counts it again, and leaves no stale disagreement', async () => {
    const p = redis.openPipeline('rotate', { env: { WQ_RESULT_KEY: OLD } });
    const before = p.startWorkers(1, { env: { WQ_RESULT_KEY: OLD } });
    const wq = (args: string[], key: string) =>
      runWq(args, { url: p.url, prefix: p.prefix, WQ_RESULT_KEY: key });
    const first = await wq(['sweep', '1-8', '--wait', '--json'], OLD);
    expect(first.code, first.stderr).toBe(0);
    await stopWorkers(before);

    p.startWorkers(1, { env: { WQ_RESULT_KEY: NEW } });
    // Under the new key nothing of the old one is a result; a read notes what it met.
    const results = await wq(['results', '1-8', '--json'], NEW);
    expect(results.code).toBe(1);
    const status = await wq(['status'], NEW);
    expect(status.code, status.stderr).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('disagreement:'))).toEqual([]);
    expect(lines.filter((l) => /do not verify under this WQ_RESULT_KEY/.test(l))).toHaveLength(1);
    expect(status.stdout).toMatch(
      /^\d+ stored record\(s\) of n = [\d, ]+ do not verify under this WQ_RESULT_KEY \(signed with another key, or forged\): not results; the next sweep of those n counts them again \(rotating the key: docs\/operations\.md\)$/m,
    );

    const again = await wq(['sweep', '1-8', '--wait', '--json'], NEW);
    expect(again.code, again.stderr).toBe(0);
    expect(sumsOf(again.stdout)).toEqual(KNOWN_S.slice(0, 8));
    const verify = await wq(['verify', '1-8'], NEW);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout.trim().split('\n')).toEqual(
      KNOWN_S.slice(0, 8).map((S, i) => `n=${i + 1} verified: S(${i + 1}) = ${S}`),
    );
    const after = await wq(['status'], NEW);
    expect(after.stdout).not.toMatch(/do not verify|disagreement:/);
  });
});
