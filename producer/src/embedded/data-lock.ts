// `npm start` owns its data directory: one run at a time, so that two private redis-servers
// never write the same append-only file. The lock names its holder; a lock whose holder is
// gone (kill -9, a crash, a reboot) is taken over, and the Redis that holder left running, if
// its reaper could not stop it, is shut down first.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataDirBusyError } from '../errors.js';

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  /** The private redis-server it started, once started. */
  readonly redisPid?: number;
}

const LOCK_FILE = 'npm-start.lock';

export class DataDirLock {
  private constructor(
    private readonly path: string,
    private holder: Holder,
  ) {}

  /**
   * Takes the lock on `dir` for this process, or throws DataDirBusyError naming the live holder.
   * `onTakeOver` hears of a holder that is gone (and of the Redis it left, stopped here).
   */
  static acquire(dir: string, onTakeOver: (message: string) => void): DataDirLock {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, LOCK_FILE);
    const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(path, JSON.stringify(holder), { flag: 'wx' });
        return new DataDirLock(path, holder);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const previous = readHolder(path);
      if (previous && previous.host === holder.host && alive(previous.pid)) {
        throw new DataDirBusyError(
          `${dir} is in use by another npm start (pid ${previous.pid}, since ${previous.since}); ` +
            'stop it first (Ctrl-C in its terminal, or kill ' +
            `${previous.pid}), or give this run its own directory`,
        );
      }
      if (previous && previous.host !== holder.host) {
        throw new DataDirBusyError(
          `${dir} is locked by npm start on ${previous.host} (pid ${previous.pid}, since ${previous.since}); ` +
            `on a shared disk, stop that run first, or delete ${path} if that machine is gone`,
        );
      }
      const left = previous?.redisPid !== undefined && isRedisServer(previous.redisPid);
      if (left) process.kill(previous.redisPid, 'SIGTERM');
      onTakeOver(
        `taking over ${dir} from an npm start that is gone` +
          (previous ? ` (pid ${previous.pid}, since ${previous.since})` : '') +
          (left ? `; stopped the redis-server it left running (pid ${previous.redisPid})` : ''),
      );
      rmSync(path, { force: true });
    }
    throw new DataDirBusyError(`${dir}: another npm start took it at the same moment; try again`);
  }

  /** Records the private redis-server, for a run that takes over after this one died. */
  recordRedis(redisPid: number): void {
    this.holder = { ...this.holder, redisPid };
    writeFileSync(this.path, JSON.stringify(this.holder));
  }

  release(): void {
    // Only our own lock: a run that took over a lock it judged stale keeps its own.
    if (readHolder(this.path)?.pid === process.pid) rmSync(this.path, { force: true });
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { since: 'an unknown time', ...parsed } as Holder;
  } catch {
    return undefined; // unreadable or half written: nobody holds it
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is a live redis-server (Linux's /proc; elsewhere nothing is stopped). */
function isRedisServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server');
  } catch {
    return false;
  }
}
