import { describe, expect, it } from 'vitest';
import { parseOutput, type BenchRecord } from '../src/bench-record.js';
import { renderBenchmarks } from '../src/render-benchmarks.js';

const OUTPUT = [
  '',
  '| run | wall s | exact |',
  '|---|---:|---|',
  '| pipeline S(14), 2 worker processes | 2.06 | yes |',
  '| pipeline sweep 1..12, 2 worker processes | 0.66 | yes |',
  '',
  '- S(14) end to end on 2 workers: 0.17× (goal ≤ 0.5×)',
  'Q(16): 0.45× the peer',
].join('\n');

const RECORD: BenchRecord = {
  schema: 1,
  bench: 'pipeline',
  command: 'npm run bench -- --pipeline',
  startedAt: '2026-12-02T10:00:00.000Z',
  finishedAt: '2026-12-02T10:03:00.000Z',
  commit: '0123456789abcdef0123456789abcdef01234567',
  dirty: false,
  machine: {
    cpus: 2,
    cpuModel: 'AMD EPYC',
    memoryBytes: 24 * 2 ** 30,
    freeMemoryBytes: 2 ** 30,
    node: 'v20.20.2',
    platform: 'linux x64',
    load: { start: 0.5, end: 1.5, max: 3.25 },
  },
  exitCode: 0,
  ...parseOutput(OUTPUT),
};

describe('when a bench prints Markdown tables and goal lines', () => {
  it('keeps each table as columns and rows, and the other lines as notes', () => {
    expect(parseOutput(OUTPUT)).toEqual({
      tables: [
        {
          columns: ['run', 'wall s', 'exact'],
          rows: [
            ['pipeline S(14), 2 worker processes', '2.06', 'yes'],
            ['pipeline sweep 1..12, 2 worker processes', '0.66', 'yes'],
          ],
        },
      ],
      notes: ['S(14) end to end on 2 workers: 0.17× (goal ≤ 0.5×)', 'Q(16): 0.45× the peer'],
    });
  });
});

describe('when docs/benchmarks.md is rendered from records', () => {
  it('shows each run with its command, date, commit, machine and load beside its figures', () => {
    const page = renderBenchmarks([RECORD]);
    const run = page.slice(page.indexOf('### `npm run bench -- --pipeline`'));
    expect(run).toBe(
      [
        '### `npm run bench -- --pipeline`',
        '',
        '2026-12-02 10:00 UTC, 3.0 min, commit 0123456; 2 cpus (AMD EPYC), 24 GiB, Node v20.20.2; load average 0.5 at the start, 3.25 at most, 1.5 at the end; goals met.',
        '',
        'Load above the 2 cores during this run: wall times are inflated, and ratios are only as fair as the load was even across the runners.',
        '',
        '| run | wall s | exact |',
        '| --- | ---: | --- |',
        '| pipeline S(14), 2 worker processes | 2.06 | yes |',
        '| pipeline sweep 1..12, 2 worker processes | 0.66 | yes |',
        '',
        '- S(14) end to end on 2 workers: 0.17× (goal ≤ 0.5×)',
        '- Q(16): 0.45× the peer',
        '',
      ].join('\n'),
    );
  });

  it('lists older runs of the same command in a history table, newest in full', () => {
    const older = { ...RECORD, startedAt: '2026-12-01T09:00:00.000Z', exitCode: 1, dirty: true };
    const page = renderBenchmarks([older, RECORD]);
    expect(page.match(/^### /gm)).toHaveLength(1);
    expect(page).toContain(
      '| 2026-12-01 09:00 | `npm run bench -- --pipeline` | 0123456 (dirty) | 0.5 / 3.25 | no |',
    );
  });

  it('says so when no run is recorded, and links the hand-kept notes without copying them', () => {
    expect(renderBenchmarks([], true)).toMatch(
      /No runs recorded yet: run `npm run bench`\.\n\nWhat was tried and measured by hand, dated: \[bench\/results\/NOTES\.md\]\(\.\.\/bench\/results\/NOTES\.md\)\.\n$/,
    );
    expect(renderBenchmarks([])).toMatch(/No runs recorded yet: run `npm run bench`\.\n$/);
  });
});
