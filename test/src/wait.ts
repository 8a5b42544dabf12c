// Polling helpers for tests that watch other processes through Redis.

/** Resolves once `check` holds; throws naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
