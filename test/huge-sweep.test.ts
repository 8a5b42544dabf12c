// Work too large to mean it: `wq sweep 32` (about 10^30 single-core seconds) is refused with one
// line naming its estimate and the override, at once (estimated before any unit is planned), and
// queues nothing; the bound is WQ_MAX_SWEEP_CORE_SECONDS and --allow-huge passes it.
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { storeKeys } from '@weak-queens/shared/contracts';
import { pipelineFixture } from './src/index.js';
import { runWq } from './src/wq-cli.js';

const redis = pipelineFixture();

describe('when a sweep is estimated beyond a core-year', () => {
  it('wq sweep 32 is refused with one line and exit 2, and nothing is queued', async () => {
    const { client, prefix } = redis.openPipeline('huge');
    const run = await runWq(['sweep', '32'], { url: redis.url, prefix });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^wq sweep: n = 32 is estimated at \d\.\de\+\d+ years of one core \(\d\.\de\+\d+ years on the \d+ slots? there (is|are)\), beyond WQ_MAX_SWEEP_CORE_SECONDS \(1 year\); nothing was queued; --allow-huge queues it anyway\n$/,
    );
    expect(await client.jobTotal()).toBe(0);
    expect(await client.registry.list()).toEqual([]);
    const probe = new Redis(redis.url);
    try {
      expect(await probe.keys(`${storeKeys(prefix).plan(32, 0, '*')}`)).toEqual([]);
    } finally {
      probe.disconnect();
    }
  });

  it('the bound is WQ_MAX_SWEEP_CORE_SECONDS, and --allow-huge queues the sweep anyway', async () => {
    const { client, prefix } = redis.openPipeline('bound');
    const env = { url: redis.url, prefix, WQ_MAX_SWEEP_CORE_SECONDS: '1e-9' };
    const refused = await runWq(['sweep', '5'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^wq sweep: n = 5 is estimated at .* beyond WQ_MAX_SWEEP_CORE_SECONDS \(0 s\); nothing was queued; --allow-huge queues it anyway\n$/,
    );
    expect(await client.jobTotal()).toBe(0);
    const allowed = await runWq(['sweep', '5', '--allow-huge', '--json'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    const submission = JSON.parse(allowed.stdout) as { added: number };
    expect(submission.added).toBeGreaterThan(0);
    expect(await client.jobTotal()).toBe(submission.added);
  });

  it('a bad WQ_MAX_SWEEP_CORE_SECONDS is named', async () => {
    const { prefix } = redis.openPipeline('bad-bound');
    const run = await runWq(['sweep', '5'], {
      url: redis.url,
      prefix,
      WQ_MAX_SWEEP_CORE_SECONDS: 'a year',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'wq sweep: WQ_MAX_SWEEP_CORE_SECONDS: "a year" is not allowed; expected a number of single-core seconds > 0, such as 3.2e7 (a core-year)\n',
    );
  });
});
