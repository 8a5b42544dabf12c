// The contracts are valibot schemas; a failure becomes an InvalidInputError that names the
// field (the path of keys) and says what is allowed, and the kernel's checks run inside them.
import { describe, expect, it } from 'vitest';
import {
  compileConfig,
  DisagreementSchema,
  parseClassicSumJobData,
  parseClassicUnitJobData,
  parseClassicUnitResult,
  parseDepthJobData,
  parseJson,
  parseSumChild,
  parseSumJobData,
  parseUnitJobData,
} from '../src/contracts/index.js';
import { parsePlanHeader, parsePlannedUnit } from '../src/contracts/plan-record.js';

/** N(8, 3) unsplit: one unit, no fixed rows, weight 1. */
const WHOLE = {
  sweepId: 's-lx3k2a',
  n: 8,
  depth: 3,
  algorithm: 'dfs',
  prefix: [],
  weight: 1,
  planId: '0123456789ab',
  estimateSeconds: 0.25,
  whole: true,
};

describe('when a unit job is parsed', () => {
  it('returns its fields, without fields it does not know and without an empty middle', () => {
    expect(parseUnitJobData({ ...WHOLE, middle: [], priority: 3 })).toEqual(WHOLE);
    expect('middle' in parseUnitJobData({ ...WHOLE, middle: [] })).toBe(false);
  });

  it('names the field and what it allows, also for a field that is missing', () => {
    const noWhole: Partial<typeof WHOLE> = { ...WHOLE };
    delete noWhole.whole;
    const cases: [unknown, string][] = [
      [[], 'unit job: [] is not allowed; expected an object'],
      [noWhole, 'unit job.whole: undefined is not allowed; expected true or false'],
      [{ ...WHOLE, n: 8.5 }, 'unit job.n: 8.5 is not allowed; expected an integer'],
      [
        { ...WHOLE, sweepId: 'a b' },
        'unit job.sweepId: "a b" is not allowed; expected a sweep id such as "s-lx3k2a"',
      ],
      [
        { ...WHOLE, algorithm: 'magic' },
        'unit job.algorithm: "magic" is not allowed; expected one of seed-dp, window-transfer, dfs',
      ],
      [
        { ...WHOLE, prefix: [0, 'x'] },
        'unit job.prefix: [0,"x"] is not allowed; expected at most 32 column numbers from 0 to 31',
      ],
      [
        { ...WHOLE, modelSeconds: -1 },
        'unit job.modelSeconds: -1 is not allowed; expected a number of seconds from 0 to 31536000, or absent',
      ],
    ];
    for (const [data, message] of cases) expect(() => parseUnitJobData(data)).toThrow(message);
  });

  it('refuses, through the kernel, a board or rows that do not fit, and a wrong weight', () => {
    const cases: [unknown, string][] = [
      [
        { ...WHOLE, depth: 99 },
        'unit job.D: 99 is not allowed; expected an integer from 0 to n-1 = 7',
      ],
      [
        { ...WHOLE, prefix: [0, 9] },
        'unit job.prefix: [0,9] is not allowed; expected at most n = 8 column numbers from 0 to 7',
      ],
      [
        { ...WHOLE, weight: 2 },
        'unit job.weight: 2 is not allowed; expected 1, as these rows give',
      ],
    ];
    for (const [data, message] of cases) expect(() => parseUnitJobData(data)).toThrow(message);
  });
});

describe('when depth and sum jobs are parsed', () => {
  const depth = { sweepId: 's-1', n: 8, depth: 3, algorithm: 'dfs', planId: '0123456789ab' };

  it('refuses a unit listed twice', () => {
    expect(() => parseDepthJobData({ ...depth, unitKeys: ['0', '0'] })).toThrow(
      'depth job.unitKeys: ["0","0"] is not allowed; expected distinct unit keys such as "3.1" or "m3.7"',
    );
    expect(parseDepthJobData({ ...depth, unitKeys: ['0', '1'] })).toEqual({
      ...depth,
      unitKeys: ['0', '1'],
    });
  });

  it('keeps one spelling of an unverified sum, and names n when the board has no such size', () => {
    expect(parseSumJobData({ sweepId: 's-1', n: 9, verify: false })).toEqual({
      sweepId: 's-1',
      n: 9,
    });
    expect(() => parseSumJobData({ sweepId: 's-1', n: 33 })).toThrow(
      'sum job.n: 33 is not allowed; expected an integer from 1 to 32',
    );
  });
});

describe('when values are read back from Redis', () => {
  const unit = {
    kind: 'unit',
    n: 6,
    depth: 2,
    unit: '*',
    value: '100',
    algorithm: 'dfs',
    seconds: 0.5,
    worker: 'w-a',
  };
  const depthOf = (role?: 'check') => ({
    kind: 'depth',
    n: 6,
    depth: 2,
    value: '100',
    algorithm: 'dfs',
    units: 1,
    seconds: 0.5,
    workers: ['w-a'],
    ...(role ? { role } : {}),
  });

  it('reads a sum child that is a unit as the whole of its (n, D), and a verified pair', () => {
    expect(parseSumChild(unit)).toEqual({ primary: depthOf() });
    expect(
      parseSumChild({ kind: 'verified', n: 6, depth: 2, primary: unit, check: depthOf('check') }),
    ).toEqual({ primary: depthOf(), check: depthOf('check') });
    expect(() =>
      parseSumChild({ kind: 'verified', n: 6, depth: 2, primary: unit, check: depthOf() }),
    ).toThrow('child result.check: ');
  });

  it('names the record and the field, and refuses text that is not JSON', () => {
    expect(() => parseJson(DisagreementSchema, '{', 'disagreement')).toThrow(
      'disagreement: "{" is not allowed; expected JSON text',
    );
    expect(() => parsePlannedUnit('[3, 1, 600]')).toThrow(
      'plan unit: [3,1,600] is not allowed; expected [weight 1|2|4, model seconds, bound seconds]',
    );
    expect(parsePlannedUnit('[2, 0.5, 600]')).toEqual({
      weight: 2,
      modelSeconds: 0.5,
      boundSeconds: 600,
    });
    expect(() =>
      parsePlanHeader('{"n": 8, "depth": 3, "role": "third", "algorithm": "dfs", "units": 4}'),
    ).toThrow('plan header.role: "third" is not allowed; expected "primary" or "check"');
  });
});

describe('when the environment is compiled', () => {
  it('does not read a variable that an override replaces', () => {
    const config = compileConfig({ WQ_LOCK_MS: 'soon', WQ_ATTEMPTS: ' 7 ' }, { lockMs: 1000 });
    expect([config.lockMs, config.stalledIntervalMs, config.attempts]).toEqual([1000, 250, 7]);
    expect(() => compileConfig({ WQ_LOCK_MS: 'soon' })).toThrow(
      'WQ_LOCK_MS: "soon" is not allowed; expected an integer of milliseconds from 500 to 3600000',
    );
  });
});

describe('when a classic job or result is parsed', () => {
  const UNIT_JOB = { problem: 'classic', sweepId: 'c-lx3k2a', n: 8, unit: '1.3', method: 'pruned' };
  const SUM_JOB = {
    problem: 'classic',
    sweepId: 'c-lx3k2a',
    n: 8,
    unitKeys: ['0.2', '1.3'],
    checkKeys: ['1.3'],
  };
  const UNIT_RESULT = {
    kind: 'classic-unit',
    n: 8,
    unit: '1.3',
    method: 'images',
    boards: '16',
    classes: '2',
    seconds: 0.01,
    worker: 'host-1',
    sweepId: 'c-lx3k2a',
    role: 'check',
  };

  it('returns the fields it knows', () => {
    expect(parseClassicUnitJobData({ ...UNIT_JOB, priority: 1 })).toEqual(UNIT_JOB);
    const batch = { ...UNIT_JOB, batch: ['1.3', '1.4', '1.5'] };
    expect(parseClassicUnitJobData(batch)).toEqual(batch);
    expect(parseClassicSumJobData(SUM_JOB)).toEqual(SUM_JOB);
    expect(parseClassicUnitResult(UNIT_RESULT)).toEqual(UNIT_RESULT);
  });

  it('judges the board first, then each unit key against the units of that board', () => {
    const cases: [() => unknown, string][] = [
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, n: 40, unit: 'x' }),
        'classic unit job.n: 40 is not allowed; expected an integer from 1 to 32',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, unit: '5.0' }),
        'classic unit job.unit: "5.0" is not allowed; expected a unit of Q(8) such as "0.2" or "3.7"',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, problem: 'weak' }),
        'classic unit job.problem: "weak" is not allowed; expected "classic"',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, method: 'fast' }),
        'classic unit job.method: "fast" is not allowed; expected pruned or images',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, batch: ['1.4', '1.3'] }),
        'classic unit job.batch: ["1.4","1.3"] is not allowed; expected unit keys from "1.3" (job.unit) on',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, batch: ['1.3', '1.3'] }),
        'classic unit job.batch: ["1.3","1.3"] is not allowed; expected distinct unit keys',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, batch: ['1.3'] }),
        'classic unit job.batch: ["1.3"] is not allowed; expected two or more unit keys',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, batch: ['1.3', '9.9'] }),
        'classic unit job.batch: ["1.3","9.9"] is not allowed; expected a unit of Q(8)',
      ],
      [
        () => parseClassicUnitJobData({ ...UNIT_JOB, paired: true, batch: ['1.3', '1.4'] }),
        'classic unit job.batch: ["1.3","1.4"] is not allowed; expected absent for a unit counted twice or by images',
      ],
      [
        () => parseClassicSumJobData({ ...SUM_JOB, unitKeys: ['1.3', '1.3'] }),
        'classic sum job.unitKeys: ["1.3","1.3"] is not allowed; expected distinct unit keys',
      ],
      [
        () => parseClassicSumJobData({ ...SUM_JOB, unitKeys: [] }),
        'classic sum job.unitKeys: [] is not allowed; expected every unit of Q(n), at least one',
      ],
      [
        () => parseClassicSumJobData({ ...SUM_JOB, checkKeys: ['2.4'] }),
        'classic sum job.checkKeys: ["2.4"] is not allowed; expected a subset of unitKeys',
      ],
      [
        () => parseClassicUnitResult({ ...UNIT_RESULT, boards: '1e3' }),
        'classic unit result.boards: "1e3" is not allowed; expected a decimal string',
      ],
    ];
    for (const [parse, message] of cases) expect(parse).toThrow(message);
  });
});
