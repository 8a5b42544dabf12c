// Runs one command and measures it from the outside: wall time and peak resident memory.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Measurement {
  readonly seconds: number;
  /** Peak resident set size in MiB (VmHWM from /proc, sampled while the process runs). */
  readonly peakRssMiB: number;
  readonly stdout: string;
  readonly exitCode: number;
}

export async function measure(
  command: string,
  args: readonly string[],
  cwd?: string,
): Promise<Measurement> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  let peakKiB = 0;
  // VmHWM is the kernel's own high-water mark, so sampling only has to catch the last value.
  const sample = (): void => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const match = /VmHWM:\s+(\d+) kB/.exec(status);
      if (match) peakKiB = Math.max(peakKiB, Number(match[1]));
    } catch {
      // the process has just exited
    }
  };
  const timer = setInterval(sample, 10);
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
  clearInterval(timer);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, peakRssMiB: peakKiB / 1024, stdout, exitCode };
}
