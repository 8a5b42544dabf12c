// How every process ends within its grace time: it waits for the graceful close only so long,
// then cuts what is still open (the worker hands its units back, the dashboard drops its
// connections).

/**
 * True when `promise` fulfils within `ms`, false when `ms` pass first; a rejection within `ms`
 * is passed on. The timer is cleared either way, so it never holds the process up.
 */
export async function fulfilsWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
