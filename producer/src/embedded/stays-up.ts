// Whether `npm start` leaves the dashboard and its idle workers up after the sweep: only for a
// person at a terminal (stdout and stderr both a TTY) who did not ask for --exit. Scripts, CI
// and pipes get the old behaviour: exit when the sweep is done.

export interface StaysUpInput {
  /** --exit was given. */
  readonly exit: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
}

export function staysUp(input: StaysUpInput): boolean {
  return !input.exit && input.stdoutIsTTY && input.stderrIsTTY;
}
