// Stops `npm start`'s private redis-server when npm start dies without stopping it (kill -9, a
// crash). Workers and the dashboard watch their IPC channel to npm start and close themselves;
// redis-server cannot, so a small node process does it for it: it watches its own IPC channel,
// which closes however npm start ends, and then shuts Redis down (SIGTERM: Redis writes its
// append-only file and exits). Its own process group, so a signal to npm start's group does
// not take it down with the rest.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function spawnRedisReaper(redisPid: number): ChildProcess {
  const entry = fileURLToPath(new URL('./redis-reaper-process.js', import.meta.url));
  const child = spawn(process.execPath, [entry, String(redisPid)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    detached: true,
  });
  // Neither the process nor its channel keeps npm start's event loop alive.
  child.unref();
  child.channel?.unref();
  return child;
}

/** npm start stops Redis itself: the reaper goes first, so that it stops nothing. */
export function dismissReaper(reaper: ChildProcess | undefined): void {
  if (reaper && reaper.exitCode === null && reaper.signalCode === null) reaper.kill('SIGKILL');
}
