import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { BadRequest } from './errors';

/** NUL, or half of a UTF-16 surrogate pair standing alone. */
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const message = 'Remove the unusual characters from this text: it holds a character that cannot be stored.';
const fieldMessage = 'Remove the unusual characters from this text';

/**
 * Where a request's input holds text the database cannot store: the NUL character, or a lone
 * UTF-16 surrogate (half a character). Answers the path to the first such string, or null.
 */
function unstorableTextAt(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return unstorable.test(value) ? path : null;
  // Deeper than any form goes: the schema refuses it on its own.
  if (typeof value !== 'object' || value === null || depth > 32) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (unstorable.test(key)) return [...path, '(a name)'];
    const found = unstorableTextAt(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The field-level 400 for input holding such text, or null when it holds none: for the request
 * check below, and for input a route parses itself (a JSON field in a multipart form).
 */
export function unstorableTextError(value: unknown, field = 'body'): BadRequest | null {
  const found = unstorableTextAt(value);
  return found ? new BadRequest(message, { [found[0] ?? field]: fieldMessage }) : null;
}

/**
 * Refuses such text in an API request's body or query with a field-level 400 before validation,
 * so no route's query can meet PostgreSQL's refusal (a 500) however its own fields are checked.
 * Attached to each API route as it is declared (register this before the routes): it goes with
 * the route matched, so `/%61pi/register` meets it as `/api/register` does, and a page request
 * pays nothing for it.
 */
export function registerUnstorableTextCheck(app: FastifyInstance): void {
  const check: preValidationHookHandler = (request, _reply, done) => {
    done(unstorableTextError(request.body) ?? unstorableTextError(request.query) ?? unstorableTextError(request.params) ?? undefined);
  };
  app.addHook('onRoute', (route) => {
    // Pages read only the parameters they know (page-address.ts), and never store them.
    if (!route.url.startsWith('/api/')) return;
    route.preValidation = [check, ...[route.preValidation ?? []].flat()];
  });
}
