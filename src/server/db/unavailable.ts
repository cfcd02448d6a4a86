import { DrizzleQueryError } from 'drizzle-orm';

/** Network failures on the way to the database server (counted only for the database's own errors). */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (not 08P01, a protocol
 * violation, which is our bug), a server shutting down or starting (57P01-57P03), too many
 * connections (53300).
 */
const unavailableStates = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300']);
/** What the pg driver says when a connection is lost or cannot be made in time. */
const lostConnection = /^Connection terminated|timeout exceeded when trying to connect|not queryable/;

const fromDatabase = Symbol('fromDatabase');

/** Marks an error thrown while opening a database connection, so a network failure in it counts. */
export function markFromDatabase(error: unknown): unknown {
  if (error && typeof error === 'object') (error as { [fromDatabase]?: true })[fromDatabase] = true;
  return error;
}

/**
 * Whether an error (or what caused it: the ORM wraps the driver's error) means the database
 * server cannot be reached or cannot serve just now, rather than a fault in the request or in
 * our code. Such a request is answered 503, and may be tried again. A network error counts only
 * when it came from the database (a failed query, or a connection being opened), not from a
 * client that hung up or another service.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  let database = false;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if ((current as { [fromDatabase]?: true })[fromDatabase] || current instanceof DrizzleQueryError) database = true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (unavailableStates.has(code) || (database && networkCodes.has(code)))) return true;
    if (current instanceof Error && lostConnection.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
