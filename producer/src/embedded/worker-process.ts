// Worker processes started from the producer side (`wq worker`, `npm start`). The producer
// never imports the worker package: it resolves the worker's entry file and runs it with node.
import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signalExitCode, STOP_SIGNALS, stoppedLine } from '@weak-queens/shared/process';

/** The worker package's process entry (`@weak-queens/worker/main`, i.e. its dist/main.js). */
export function workerEntry(): string {
  return fileURLToPath(import.meta.resolve('@weak-queens/worker/main'));
}

export interface NodeProcessOptions {
  readonly args?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly stdio?: StdioOptions;
  /** Own process group, so a terminal's Ctrl-C reaches only the parent, which forwards it once. */
  readonly detached?: boolean;
}

export type WorkerProcessOptions = NodeProcessOptions;

export function spawnWorkerProcess(options: WorkerProcessOptions = {}): ChildProcess {
  return spawnNodeEntry(workerEntry(), options);
}

/**
 * Runs a package's entry file with this node, with an IPC channel, which the worker and the
 * dashboard both watch: each closes when its parent dies.
 */
export function spawnNodeEntry(entry: string, options: NodeProcessOptions): ChildProcess {
  return spawn(process.execPath, [entry, ...(options.args ?? [])], {
    env: options.env ?? process.env,
    stdio: withIpc(options.stdio ?? 'inherit'),
    detached: options.detached ?? false,
  });
}

/**
 * The given stdio plus an IPC channel. Nothing is sent over it: the child watches it close, which
 * happens however its parent ends (kill -9 included), and then closes itself gracefully.
 */
function withIpc(stdio: StdioOptions): StdioOptions {
  const three = typeof stdio === 'string' ? [stdio, stdio, stdio] : [...stdio];
  if (three.includes('ipc')) return three;
  while (three.length < 3) three.push('inherit');
  return [...three, 'ipc'];
}

/** Resolves with the exit code (1 when killed by a signal), also for a child already gone. */
export function exitOf(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  // Killed by a signal: exitCode stays null and 'exit' has already fired.
  if (child.signalCode !== null) return Promise.resolve(1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** The signals every process here treats as "close gracefully" (one list, in @weak-queens/shared/process). */
export { STOP_SIGNALS } from '@weak-queens/shared/process';

/**
 * Waits for a child that runs a whole command (`wq worker`, `wq dashboard`), forwarding
 * every stop signal so that the child closes gracefully; resolves with its exit code, and when
 * a forwarded signal ended it (its code is that signal's), says so in one line on `stderr`.
 * Spawn the child detached (its own process group), so that a terminal's Ctrl-C or hangup
 * reaches it once, through this, and not twice (twice means "exit now").
 */
export async function runForwardingSignals(
  child: ChildProcess,
  command: string,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const forwarded: NodeJS.Signals[] = [];
  const forward = (signal: NodeJS.Signals): void => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    forwarded.push(signal);
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  try {
    const code = await exitOf(child);
    const by = forwarded.findLast((signal) => signalExitCode(signal) === code);
    if (by !== undefined) stderr.write(`${stoppedLine(command, by)}\n`);
    return code;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, forward);
  }
}
