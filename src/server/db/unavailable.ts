/** Network failures on the way to the database server. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is stopping, starting or full: 57P01-57P03 and 53300. */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300']);
/** What the pg driver says when a connection is lost or cannot be made in time. */
const lostConnection = /^Connection terminated|timeout exceeded when trying to connect|not queryable/;

/**
 * Whether an error (or what caused it: the ORM wraps the driver's error) means the database
 * server cannot be reached or cannot serve just now, rather than a fault in the request or in
 * our code. Such a request is answered 503, and may be tried again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (networkCodes.has(code) || unavailableStates.has(code) || code.startsWith('08'))) return true;
    if (current instanceof Error && lostConnection.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
