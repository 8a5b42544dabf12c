// Worker processes started from the producer side (`wq worker`, `npm start`). The producer
// never imports the worker package: it resolves the worker's entry file and runs it with node.
import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The worker package's process entry (`@weak-queens/worker/main`, i.e. its dist/main.js). */
export function workerEntry(): string {
  return fileURLToPath(import.meta.resolve('@weak-queens/worker/main'));
}

export interface WorkerProcessOptions {
  readonly args?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly stdio?: StdioOptions;
  /** Own process group, so a terminal's Ctrl-C reaches only the parent, which forwards it once. */
  readonly detached?: boolean;
}

export function spawnWorkerProcess(options: WorkerProcessOptions = {}): ChildProcess {
  return spawn(process.execPath, [workerEntry(), ...(options.args ?? [])], {
    env: options.env ?? process.env,
    stdio: options.stdio ?? 'inherit',
    detached: options.detached ?? false,
  });
}

/** Resolves with the exit code (1 when killed by a signal), also for a child already gone. */
export function exitOf(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  // Killed by a signal: exitCode stays null and 'exit' has already fired.
  if (child.signalCode !== null) return Promise.resolve(1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/**
 * Waits for a child that runs a whole command (`wq worker`, `wq dashboard`), forwarding
 * SIGINT/SIGTERM so that the child closes gracefully; resolves with its exit code.
 */
export async function runForwardingSignals(child: ChildProcess): Promise<number> {
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    return await exitOf(child);
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}
