// Which errors mean "Redis is not reachable right now" (a restart, a failover, a cut link) as
// opposed to a real answer: a follower rides those out and polls again once ioredis reconnects.

const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const MESSAGES = [
  /Connection is closed/,
  /max retries per request/i,
  /connect ETIMEDOUT/,
  /Stream isn't writeable/,
  /LOADING/,
];

export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && CODES.has(code)) return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return MESSAGES.some((pattern) => pattern.test(err.message));
}
