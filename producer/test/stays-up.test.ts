// When `npm start` leaves the dashboard up after the sweep (the person at the keyboard).
import { describe, expect, it } from 'vitest';
import { staysUp } from '../src/embedded/stays-up.js';

describe('when npm start has finished its sweep', () => {
  it.each([
    [false, true, true, true],
    [true, true, true, false],
    [false, false, true, false],
    [false, true, false, false],
    [false, false, false, false],
  ])(
    'with --exit %s, stdout a TTY %s, stderr a TTY %s, it stays up: %s',
    (exit, stdoutIsTTY, stderrIsTTY, expected) => {
      expect(staysUp({ exit, stdoutIsTTY, stderrIsTTY })).toBe(expected);
    },
  );
});
