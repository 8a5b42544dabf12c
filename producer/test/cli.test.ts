// End-to-end tests of the `wq` command line: they spawn the built CLI (the test task builds the
// package first) and check exit codes, stdout and stderr exactly.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KNOWN_S, knownValue } from '@weak-queens/shared/contracts';
import { N3_TABLE_LINES, N4_TABLE_LINES } from './results-tables.js';

const WQ = fileURLToPath(new URL('../bin/wq.js', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function wq(...args: string[]): Promise<Run> {
  return wqWith({}, ...args);
}

function wqWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WQ, ...args],
      { maxBuffer: 64 << 20, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** S(1..11), from the one list of reference values. */
const S_1_TO_11 = KNOWN_S.slice(0, 11);

// What the refusals below say is allowed, for the phrases several of them share.
const NS_ALLOWED = 'expected sizes from 1 to 32 as "14", "4-12" or "4,6,10-12"';
const N_ALLOWED = 'expected an integer from 1 to 32';
/** Beside the range when a larger n was asked for: why 32 is the largest. */
const LARGEST = "(32 is the largest: a board's columns are the bits of a 32-bit integer)";
const INTEGER_1_TO_1024 = 'an integer from 1 to 1024';
const ONLY_NS = 'expected only <ns> and options';
const ONLY_SWEEP = 'expected only <sweep> and options';
const NO_ARGUMENTS = 'expected no arguments, only options';
const TARGET_SECONDS = 'a number of seconds > 0 and ≤ 86400 (a day)';

describe.concurrent('when the command line is wrong', () => {
  it.each([
    [['compute', '0'], `wq compute: n: "0" is not allowed; ${NS_ALLOWED}`],
    [['compute', 'abc'], `wq compute: n: "abc" is not allowed; ${NS_ALLOWED}`],
    [['compute', '40'], `wq compute: n: "40" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['compute', '99'], `wq compute: n: "99" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['sweep', '40'], `wq sweep: n: "40" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['plan', '1000'], `wq plan: n: "1000" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['results', '4,33'], `wq results: n: "4,33" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['verify', '1-33'], `wq verify: n: "1-33" is not allowed; ${NS_ALLOWED} ${LARGEST}`],
    [['compute', '5-3'], `wq compute: n: "5-3" is not allowed; ${NS_ALLOWED}`],
    [['compute'], `wq compute: missing <ns>; ${NS_ALLOWED}`],
    [
      ['compute', '4', '--algorithm', 'foo'],
      'wq compute: algorithm: "foo" is not allowed; expected one of auto, seed-dp, window-transfer, dfs',
    ],
    [
      ['compute', '4', '--bogus'],
      'wq compute: option: "--bogus" is not allowed; expected one of --json, --algorithm <value>, --depths <value>, --threads <value>, --help',
    ],
    [
      ['compute', '4-6', '--depths', '4'],
      'wq compute: --depths: "4" is not allowed; expected "9", "9-11" or "0,9-11", each below 4',
    ],
    [
      ['compute', '6', '--depths', '3-1'],
      'wq compute: --depths: "3-1" is not allowed; expected "9", "9-11" or "0,9-11", each below 6',
    ],
    [
      ['compute', '4', '--threads', '0'],
      `wq compute: threads: "0" is not allowed; expected ${INTEGER_1_TO_1024}`,
    ],
    [
      ['compute', '4', '--threads', '1.5'],
      `wq compute: threads: "1.5" is not allowed; expected ${INTEGER_1_TO_1024}`,
    ],
    [
      ['compute', '4', '--threads'],
      `wq compute: option --threads needs a value: ${INTEGER_1_TO_1024}`,
    ],
    [['compute', '4', '5'], `wq compute: argument: "5" is not allowed; ${ONLY_NS}`],
    [
      ['boards', '4', '--format', 'xml'],
      'wq boards: format: "xml" is not allowed; expected one of ascii, json',
    ],
    [
      ['boards', '4', '--limit', '0'],
      'wq boards: limit: "0" is not allowed; expected an integer from 1 to 1000000000',
    ],
    [
      ['boards', '14', '--all', '--limit', '5'],
      'wq boards: --all and --limit <k> exclude each other: give one of them',
    ],
    [['sweep', '4', '5'], `wq sweep: argument: "5" is not allowed; ${ONLY_NS}`],
    [
      ['sweep', '4', '--target-seconds', '1e300'],
      `wq sweep: --target-seconds: "1e300" is not allowed; expected ${TARGET_SECONDS}`,
    ],
    [
      ['sweep', '4', '--target-seconds', '0'],
      `wq sweep: --target-seconds: "0" is not allowed; expected ${TARGET_SECONDS}`,
    ],
    [['status', 'extra'], `wq status: argument: "extra" is not allowed; ${NO_ARGUMENTS}`],
    [['results', '4', '5'], `wq results: argument: "5" is not allowed; ${ONLY_NS}`],
    [['cancel', 's-1', 's-2'], `wq cancel: argument: "s-2" is not allowed; ${ONLY_SWEEP}`],
    [['retry', 's-1', 's-2'], `wq retry: argument: "s-2" is not allowed; ${ONLY_SWEEP}`],
    [['worker', 'extra'], `wq worker: argument: "extra" is not allowed; ${NO_ARGUMENTS}`],
    [
      ['worker', '--concurrency', '99999999999999999999'],
      `wq worker: --concurrency: "99999999999999999999" is not allowed; expected ${INTEGER_1_TO_1024}`,
    ],
    [['dashboard', 'extra'], `wq dashboard: argument: "extra" is not allowed; ${NO_ARGUMENTS}`],
    [['boards', '33'], `wq boards: n: "33" is not allowed; ${N_ALLOWED} ${LARGEST}`],
    [['classic', '99'], `wq classic: n: "99" is not allowed; ${N_ALLOWED} ${LARGEST}`],
    [['classic', '0'], `wq classic: n: "0" is not allowed; ${N_ALLOWED}`],
    [['unique', 'x'], `wq unique: n: "x" is not allowed; ${N_ALLOWED}`],
  ])('wq %j exits with 2 and one line saying what is allowed', async (args, message) => {
    const run = await wq(...args);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
  });

  // Later steps register more commands after these four; the list grows, the line stays one.
  const COMMANDS = 'one of compute, classic, unique, boards(, [a-z-]+)* \\(see wq --help\\)';

  it('refuses an unknown command with the list of commands', async () => {
    const run = await wq('frobnicate');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^wq: command: "frobnicate" is not allowed; expected ${COMMANDS}\\n$`),
    );
  });

  it('refuses a missing command with the list of commands', async () => {
    const run = await wq();
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^wq: missing command; expected ${COMMANDS}\\n$`));
  });
});

describe.concurrent('when a value is huge or very long', () => {
  const long = '1'.repeat(100_000);

  it.each([
    ['compute', long],
    ['sweep', long],
    ['results', long],
    ['cancel', 's-1', long],
    ['boards', long],
    ['compute', '4', `--algorithm=${long}`],
    ['status', `--${long}`],
  ])('wq %s … exits with 2 and one line of at most 400 characters', async (...args) => {
    const run = await wq(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr.length).toBeLessThanOrEqual(401);
    expect(run.stderr).toContain('… (1000');
  });

  it('echoes the start of a long n spec and its length', async () => {
    const run = await wq('sweep', long);
    expect(run.stderr).toBe(
      `wq sweep: n: "${'1'.repeat(79)}… (100002 characters) is not allowed; ${NS_ALLOWED} ${LARGEST}\n`,
    );
  });

  it.each([
    ['WQ_SHUTDOWN_GRACE_MS', 'an integer of milliseconds from 0 to 600000'],
    ['WQ_LOCK_MS', 'an integer of milliseconds from 500 to 3600000'],
    ['WQ_TARGET_SECONDS', TARGET_SECONDS],
  ])('refuses %s=99999999999999999999 before talking to Redis', async (name, range) => {
    const run = await wqWith(
      { [name]: '99999999999999999999', REDIS_URL: 'redis://127.0.0.1:1' },
      'status',
    );
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `wq status: ${name}: "99999999999999999999" is not allowed; expected ${range}\n`,
    });
  });
});

describe.concurrent('when asked for help', () => {
  it('lists every command at the top level', async () => {
    const run = await wq('--help');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const name of ['compute', 'classic', 'unique', 'boards']) {
      expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  });

  it('ends with the exit codes, one per stop signal', async () => {
    const run = await wq('--help');
    expect(lines(run.stdout).slice(-3)).toEqual([
      'Exit codes: 0 done, 1 the work failed, 2 bad input; a long-running command (worker,',
      'dashboard, sweep --wait, status --watch) stopped by a signal says so in one line and exits',
      'with 128 + its number: 129 SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT, 140 SIGUSR2, 143 SIGTERM.',
    ]);
  });

  it.each([
    ['compute', '--help'],
    ['compute', '-h'],
    ['classic', '--help'],
    ['unique', '--help'],
    ['boards', '--help'],
    ['boards', '-h'],
  ])('wq %s %s prints its usage and exits with 0', async (name, flag) => {
    const run = await wq(name, flag);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.startsWith(`Usage: wq ${name} `)).toBe(true);
  });

  it('answers --help on every registered command', async () => {
    const names = [...(await wq('--help')).stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]);
    expect(names.slice(0, 4)).toEqual(['compute', 'classic', 'unique', 'boards']);
    const runs = await Promise.all(names.map((name) => wq(name ?? '', '--help')));
    runs.forEach((run, i) => {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(`wq ${names[i]}`);
    });
  });

  it('answers --help even after other arguments', async () => {
    const run = await wq('compute', '40', '--bogus', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('Usage: wq compute ')).toBe(true);
  });
});

describe.concurrent('when computing N(n, D) and S(n)', () => {
  it('prints the worked example n = 4 as one JSON line', async () => {
    const run = await wq('compute', '4', '--json');
    expect(run).toEqual({
      code: 0,
      stdout: '{"n":4,"S":"276","N":["256","16","2","2"]}\n',
      stderr: '',
    });
  });

  it('prints a right-aligned table without --json', async () => {
    const run = await wq('compute', '3-4', '--threads', '1');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe([...N3_TABLE_LINES, '', ...N4_TABLE_LINES, ''].join('\n'));
  });

  it('counts only the D asked for, with no S(n), by the algorithm asked for', async () => {
    // N(8, 1) and N(8, 7) by the DFS: an independent recount of two values with references.
    const run = await wq('compute', '8', '--depths', '1,7', '--algorithm', 'dfs', '--json');
    const [d1, d7] = [knownValue(8, 1)?.value, knownValue(8, 7)?.value];
    expect(run).toEqual({
      code: 0,
      stdout: `{"n":8,"S":null,"N":[null,"${d1}",null,null,null,null,null,"${d7}"]}\n`,
      stderr: '',
    });
    const all = await wq('compute', '5', '--depths', '0-4', '--json');
    expect(all.stdout).toBe(`{"n":5,"S":"${KNOWN_S[4]}","N":["3125","184","18","10","10"]}\n`);
  });

  it('gives sizes of a list in increasing order', async () => {
    const run = await wq('compute', '5,2,4-4', '--json', '--threads', '2');
    expect(lines(run.stdout).map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([
      2, 4, 5,
    ]);
  });

  const cases: Array<[string, string, number]> = [];
  for (const algorithm of ['auto', 'window-transfer', 'seed-dp', 'dfs']) {
    for (const threads of ['1', '2'])
      cases.push([algorithm, threads, algorithm === 'dfs' ? 8 : 11]);
  }
  it.each(cases)(
    'gives the published S(1..n) with --algorithm %s --threads %s (n = %i)',
    async (algorithm, threads, last) => {
      const run = await wq(
        'compute',
        `1-${last}`,
        '--json',
        '--algorithm',
        algorithm,
        '--threads',
        threads,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const results = lines(run.stdout).map(
        (line) => JSON.parse(line) as { n: number; S: string; N: string[] },
      );
      expect(results.map((r) => r.n)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      expect(results.map((r) => r.S)).toEqual(S_1_TO_11.slice(0, last));
      for (const r of results) {
        expect(r.N).toHaveLength(r.n);
        // N(n, 0) = n^n, and the N(n, D) add up to S(n).
        expect(r.N[0]).toBe(`${BigInt(r.n) ** BigInt(r.n)}`);
        expect(r.N.reduce((sum, v) => sum + BigInt(v), 0n)).toBe(BigInt(r.S));
      }
    },
  );
});

describe.concurrent('when asking for the classic family', () => {
  it('counts the 92 solutions of n = 8', async () => {
    expect(await wq('classic', '8')).toEqual({ code: 0, stdout: '92\n', stderr: '' });
  });

  it('counts the 12 classes of n = 8 under rotations and reflections', async () => {
    expect(await wq('unique', '8')).toEqual({ code: 0, stdout: '12\n', stderr: '' });
  });

  it('lists the two boards of n = 4 as JSON lines', async () => {
    expect(await wq('boards', '4', '--format', 'json')).toEqual({
      code: 0,
      stdout: '[1,3,0,2]\n[2,0,3,1]\n',
      stderr: '',
    });
  });

  it('draws the boards of n = 4 as text with a blank line between', async () => {
    expect(await wq('boards', '4')).toEqual({
      code: 0,
      stdout: '. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n',
      stderr: '',
    });
  });
});

describe.concurrent('when more boards exist than the limit', () => {
  const note = (shown: number): string =>
    `wq boards: showed the first ${shown} boards and stopped; more exist ` +
    `(use --all to list every board, or --limit <k> for more)\n`;

  it('prints the first 100 by default and says so on stderr', async () => {
    const run = await wq('boards', '9', '--format', 'json');
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(100);
    expect(lines(run.stdout)[0]).toBe('[0,2,5,7,1,3,8,6,4]');
    expect(run.stderr).toBe(note(100));
  });

  it('prints exactly --limit boards', async () => {
    const run = await wq('boards', '6', '--format', 'json', '--limit', '2');
    expect(run).toEqual({ code: 0, stdout: '[1,3,5,0,2,4]\n[2,5,1,4,0,3]\n', stderr: note(2) });
  });

  it('prints everything with no note when the limit is not reached', async () => {
    const run = await wq('boards', '6', '--format', 'json', '--limit', '4');
    expect(lines(run.stdout)).toHaveLength(4);
    expect(run.stderr).toBe('');
  });

  it('prints all 352 boards of n = 9 with --all', async () => {
    const run = await wq('boards', '9', '--format', 'json', '--all');
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(352);
    expect(new Set(lines(run.stdout)).size).toBe(352);
    expect(run.stderr).toBe('');
  });
});

describe('when wq plan describes a cluster and Redis does not answer', () => {
  interface SizeLine {
    n: number;
    units: number;
    coreSeconds: number;
    depths: { D: number; units: number; coreSeconds: number }[];
  }

  it('plans with the uncalibrated cost model, the same plan twice, its sums adding up', async () => {
    // n = 13, 14: large enough that each D's core-seconds, printed to the millisecond, sum to
    // the n's within the bound below (n = 11's whole plan is 3 ms since the DFS runs as WebAssembly).
    const args = ['plan', '13-14', '--workers', '4', '--slots', '2', '--memory', '1GiB', '--json'];
    const unreachable = { REDIS_URL: 'redis://127.0.0.1:1' };
    const [first, second] = [
      await wqWith(unreachable, ...args),
      await wqWith(unreachable, ...args),
    ];
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      'wq plan: Redis not reachable; planning with the uncalibrated cost model\n',
    );
    expect(second.stdout).toBe(first.stdout);
    const out = lines(first.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    const sizes = out.slice(0, -1) as unknown as SizeLine[];
    expect(sizes.map((s) => s.n)).toEqual([13, 14]);
    for (const size of sizes) {
      expect(size.depths.map((d) => d.D)).toEqual(Array.from({ length: size.n }, (_, d) => d));
      expect(size.depths.reduce((t, d) => t + d.units, 0)).toBe(size.units);
      const core = size.depths.reduce((t, d) => t + d.coreSeconds, 0);
      expect(Math.abs(core - size.coreSeconds)).toBeLessThan(0.01 * size.coreSeconds + 1e-3);
    }
    expect(Object.keys(out.at(-1) ?? {})).toEqual(['sweep']);
  }, 60_000);
});
