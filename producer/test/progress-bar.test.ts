// The one progress bar: redrawn in place on a terminal; without one, silent or (for sweeps) a
// plain line at most every 10 s or every 10 %.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../src/cli/progress-bar.js';

function capture(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('when stderr is not a terminal', () => {
  it('prints a plain line only every 10 s or every 10 %, not per update', () => {
    const { stream, text } = capture(false);
    let now = 1_000_000;
    const bar = new ProgressBar({ label: 'sweep s-1', stream, plain: true, now: () => now });
    // 200 updates over 19.9 s, from 0 % to 9.95 %: one line, at 10 s.
    for (let i = 0; i < 200; i++) {
      bar.update(i / 2000, `${i} units`);
      now += 100;
    }
    expect(text()).toBe(`sweep s-1 [##${'.'.repeat(28)}]   5.0%  100 units  10.0s\n`);
    // Crossing 10 % prints at once, however soon; 10.5 % later does not.
    bar.update(0.1, 'a');
    bar.update(0.105, 'b');
    expect(text().split('\n')).toHaveLength(3);
    expect(text().split('\n')[1]).toBe(
      'sweep s-1 [###...........................]  10.0%  a  20.0s',
    );
  });

  it('prints nothing unless asked for plain lines', () => {
    const { stream, text } = capture(false);
    let now = 0;
    const bar = new ProgressBar({ label: 'n = 14', stream, now: () => now });
    for (let i = 0; i <= 100; i++) {
      bar.update(i / 100);
      now += 1000;
    }
    bar.clear();
    expect(bar.enabled).toBe(false);
    expect(text()).toBe('');
  });
});

describe('when stderr is a terminal', () => {
  it('redraws one line in place at most every 100 ms and clears it', () => {
    const { stream, text } = capture(true);
    let now = 0;
    const bar = new ProgressBar({ label: 'n = 14', stream, now: () => now });
    now = 200;
    bar.update(0.5);
    now = 250;
    bar.update(0.6);
    now = 350;
    bar.update(1.5);
    bar.clear();
    expect(text()).toBe(
      `\r\x1b[Kn = 14 [${'#'.repeat(15)}${'.'.repeat(15)}]  50.0%  0.2s` +
        `\r\x1b[Kn = 14 [${'#'.repeat(30)}] 100.0%  0.3s` +
        '\r\x1b[K',
    );
  });
});
