import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from '../../lib/errors';
import { requestProtocol } from '../../lib/inner-calls';
import { sessionCookieName, type SessionStore } from './sessions';
import type { UserRow } from './user-view';

interface SessionLookup {
  user: Promise<UserRow | null> | null;
  renewedUntil: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    sessionLookup: SessionLookup | null;
  }
}

/**
 * Who the request is from, looked up lazily: public reads that never ask cost no database query,
 * even with a session cookie. The answer is memoised for the rest of the request.
 */
export function currentUser(request: FastifyRequest): Promise<UserRow | null> {
  const lookup = (request.sessionLookup ??= { user: null, renewedUntil: null });
  if (!lookup.user) {
    const token = request.cookies[sessionCookieName];
    const sessions = request.server.sessionStore;
    lookup.user = token
      ? sessions.resolve(token).then((found) => {
          lookup.renewedUntil = found?.renewedUntil ?? null;
          return found?.user ?? null;
        })
      : Promise.resolve(null);
  }
  return lookup.user;
}

export async function requireUser(request: FastifyRequest): Promise<UserRow> {
  const user = await currentUser(request);
  if (!user) throw new Unauthorized();
  return user;
}

export async function requireAdmin(request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw new Forbidden('This needs an admin account.');
  return user;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
    expires: expiresAt,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
}

function isSecure(request: FastifyRequest): boolean {
  const mode = request.server.appConfig.cookieSecure;
  return mode === 'always' || (mode === 'auto' && requestProtocol(request) === 'https');
}

export function registerSessionHooks(app: FastifyInstance, sessions: SessionStore): void {
  app.decorate('sessionStore', sessions);
  app.decorateRequest('sessionLookup', null);
  // A renewed session gets a renewed cookie, so the browser's copy slides with the server's.
  app.addHook('onSend', (request, reply, payload, done) => {
    const renewedUntil = request.sessionLookup?.renewedUntil;
    const token = request.cookies[sessionCookieName];
    if (renewedUntil && token && !reply.hasHeader('set-cookie')) setSessionCookie(request, reply, token, renewedUntil);
    done(null, payload);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionStore: SessionStore;
  }
}

/** Route hooks that run before body validation, so a visitor hears 401 (not 400) from staff routes. */
export const signedInOnly = async (request: FastifyRequest): Promise<void> => {
  await requireUser(request);
};

export const adminOnly = async (request: FastifyRequest): Promise<void> => {
  await requireAdmin(request);
};
