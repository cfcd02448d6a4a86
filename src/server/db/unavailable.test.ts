import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, markFromDatabase } from './unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const queryFailed = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);

describe('what counts as the database being unavailable (answered 503)', () => {
  it('counts a server shutting down, starting, full or unreachable, and a lost connection', () => {
    expect(isDatabaseUnavailable(queryFailed(withCode('terminating connection due to administrator command', '57P01')))).toBe(true);
    expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('sorry, too many clients already', '53300'))).toBe(true);
    expect(isDatabaseUnavailable(queryFailed(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe(true);
    expect(isDatabaseUnavailable(markFromDatabase(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('does not count our own bugs or other parties’ network errors', () => {
    expect(isDatabaseUnavailable(queryFailed(withCode('bind message supplies 1 parameters, but prepared statement requires 2', '08P01')))).toBe(false);
    expect(isDatabaseUnavailable(queryFailed(withCode('syntax error at or near "selec"', '42601')))).toBe(false);
    expect(isDatabaseUnavailable(withCode('aborted', 'ECONNRESET'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('An error occurred with our connection to Stripe.', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});
