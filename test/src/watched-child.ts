// A child process whose output a test reads while it runs: wait for a line, send a signal, then
// take the exit code. Its stdout and stderr are kept whole, as text.
import { spawn, type ChildProcess } from 'node:child_process';

export interface WatchedChild {
  readonly child: ChildProcess;
  /** All it has written to stdout so far. */
  readonly stdout: string;
  /** All it has written to stderr so far. */
  readonly stderr: string;
  /** Its exit code; null when a signal ended it. */
  readonly exited: Promise<number | null>;
}

export function spawnWatched(
  command: string,
  args: readonly string[],
  options: { readonly cwd?: string | undefined; readonly env: NodeJS.ProcessEnv },
): WatchedChild {
  const child = spawn(command, args, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
  };
}
