// Which errors a sweep follower waits out (Redis unreachable) and which it reports at once.
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../src/contracts/index.js';
import { isConnectionError } from '../src/client/connection.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('when an error reaches the sweep follower', () => {
  it('treats a refused, reset or closed connection as Redis being away', () => {
    expect(isConnectionError(withCode('connect ECONNREFUSED 127.0.0.1:6379', 'ECONNREFUSED'))).toBe(
      true,
    );
    expect(isConnectionError(withCode('read ECONNRESET', 'ECONNRESET'))).toBe(true);
    expect(isConnectionError(new Error('Connection is closed.'))).toBe(true);
    // Seen when Redis is killed under a submission (the chaos soak).
    expect(isConnectionError(new Error('Command aborted due to connection close'))).toBe(true);
    const maxRetries = new Error('Reached the max retries per request limit (which is 1).');
    maxRetries.name = 'MaxRetriesPerRequestError';
    expect(isConnectionError(maxRetries)).toBe(true);
    expect(isConnectionError(new Error('LOADING Redis is loading the dataset in memory'))).toBe(
      true,
    );
  });

  it('treats anything else as a real answer', () => {
    expect(isConnectionError(new InvalidInputError('sweep', 's-x', 'a sweep id'))).toBe(false);
    expect(isConnectionError(new Error('WRONGTYPE Operation against a key'))).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
  });
});
