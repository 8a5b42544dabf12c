// The reaper's process (see redis-reaper.ts): `node redis-reaper-process.js <redis pid>`.
const redisPid = Number(process.argv[2]);

/** Asks Redis to stop, then makes sure: SIGKILL after 10 s. */
function stopRedis(): void {
  try {
    process.kill(redisPid, 'SIGTERM');
  } catch {
    process.exit(0); // already gone
  }
  const deadline = Date.now() + 10_000;
  const poll = setInterval(() => {
    try {
      process.kill(redisPid, Date.now() > deadline ? 'SIGKILL' : 0);
    } catch {
      clearInterval(poll);
      process.exit(0);
    }
  }, 100);
}

if (Number.isInteger(redisPid) && redisPid > 0 && process.connected) {
  process.on('disconnect', stopRedis);
  // The channel keeps this process alive until npm start is gone; nothing is ever sent on it.
  process.on('message', () => undefined);
} else {
  process.exit(2);
}
