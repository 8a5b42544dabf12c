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

/** Closes `client`, giving up after two seconds: a connection may hang on a cut link. */
export async function closeWithin(
  client: { close(): Promise<unknown> } | undefined,
): Promise<void> {
  await Promise.race([client?.close(), sleep(2000)]);
}
