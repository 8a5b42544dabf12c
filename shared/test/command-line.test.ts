// The one command-line framework and the one exit-code policy every entry point uses.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type CommandDefinition,
  commandHelp,
  exitCodeOf,
  InterruptedError,
  parseCommandLine,
  reportFailure,
  UsageError,
  wantsHelp,
  WorkFailedError,
} from '../src/process/index.js';
import { InvalidInputError } from '../src/kernel/errors.js';
import { RedisUnavailableError } from '../src/client/redis-probe.js';
import { SweepFailedError } from '../src/client/errors.js';

const TRY = {
  name: 'wq try',
  summary: 'a command to try the framework on',
  positionals: [{ name: 'ns', allowed: 'sizes such as "4-12"' }],
  options: {
    json: { type: 'boolean', description: 'one JSON line' },
    threads: {
      type: 'string',
      short: 't',
      value: 'k',
      allowed: 'an integer from 1 to 8',
      description: 'threads\nat most 8',
    },
    format: { type: 'string', value: 'f', default: 'ascii', description: 'ascii or json' },
  },
  notes: 'Example:\n  wq try 4',
} as const satisfies CommandDefinition;

function refusal(args: string[]): string {
  try {
    parseCommandLine(TRY, args);
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  return 'accepted';
}

describe('when a command line is parsed', () => {
  it('gives the values, the defaults and the positionals', () => {
    expect(parseCommandLine(TRY, ['4-6', '-t', '2'])).toEqual({
      values: { json: false, threads: '2', format: 'ascii' },
      positionals: ['4-6'],
    });
    expect(parseCommandLine(TRY, ['--json', '--threads=3', '--format', 'json', '5'])).toEqual({
      values: { json: true, threads: '3', format: 'json' },
      positionals: ['5'],
    });
  });

  it.each([
    [[], 'UsageError: missing <ns>; expected sizes such as "4-12"'],
    [['4', '5'], 'InvalidInputError: argument: "5" is not allowed; expected only <ns> and options'],
    [
      ['4', '--bogus'],
      'InvalidInputError: option: "--bogus" is not allowed; expected one of --json, --threads <value>, --format <value>, --help',
    ],
    [['4', '--threads'], 'UsageError: option --threads needs a value: an integer from 1 to 8'],
    [
      ['4', '--threads', '-1'],
      'UsageError: option --threads needs a value: an integer from 1 to 8 (write --threads=<value> if it starts with "-")',
    ],
    [['4', '--json=yes'], 'UsageError: option --json takes no value'],
    [['4', '-t'], 'UsageError: option --threads needs a value: an integer from 1 to 8'],
  ])('refuses %j with one line naming what is allowed', (args, message) => {
    expect(refusal(args)).toBe(message);
  });

  it('sees --help anywhere before "--", whatever else is wrong', () => {
    expect(wantsHelp(['40', '--bogus', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--', '--help'])).toBe(false);
    expect(wantsHelp(['4'])).toBe(false);
  });
});

describe('when help is generated from the definition', () => {
  it('writes the usage line, the arguments, the options and the notes', () => {
    expect(commandHelp(TRY)).toBe(
      [
        'Usage: wq try <ns> [--json] [--threads <k>] [--format <f>]',
        '',
        'a command to try the framework on',
        '',
        'Arguments:',
        '  <ns>  sizes such as "4-12"',
        '',
        'Options:',
        '      --json         one JSON line',
        '  -t, --threads <k>  threads',
        '                     at most 8',
        '      --format <f>   ascii or json (default ascii)',
        '  -h, --help         this text',
        '',
        'Example:',
        '  wq try 4',
      ].join('\n'),
    );
  });
});

class CountFailedError extends WorkFailedError {}

describe('when an error ends a command', () => {
  it.each([
    ['bad input', new InvalidInputError('n', 'x', 'an integer'), 2],
    ['a command line not understood', new UsageError('missing <ns>'), 2],
    ['a sweep that failed', new SweepFailedError('s-1', 4, 'unit failed'), 1],
    ['work that failed', new CountFailedError('count failed'), 1],
    [
      'Redis that stayed away',
      new RedisUnavailableError('redis://127.0.0.1:1', 'unreachable', 'refused'),
      1,
    ],
    ['a bug', new TypeError('x is undefined'), 1],
    ['Ctrl-C', new InterruptedError('SIGINT'), 130],
    ['SIGHUP', new InterruptedError('SIGHUP'), 129],
    ['SIGQUIT', new InterruptedError('SIGQUIT'), 131],
    ['SIGUSR2', new InterruptedError('SIGUSR2'), 140],
    ['SIGTERM', new InterruptedError('SIGTERM'), 143],
    ['an interruption of no known signal', new InterruptedError(), 130],
  ])('exits for %s with the policy code', (_, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });

  it('reports one line of at most 400 characters and returns the code', () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = reportFailure('wq try', new UsageError(`${'x'.repeat(1000)}\nsecond line`), {
      stderr,
    });
    expect(code).toBe(2);
    expect(text).toBe(`wq try: ${'x'.repeat(391)}…\n`);
    expect(reportFailure('wq try', new Error('boom'), { stderr })).toBe(1);
    expect(text.split('\n')[1]).toBe('wq try: unexpected error: boom');
  });
});
